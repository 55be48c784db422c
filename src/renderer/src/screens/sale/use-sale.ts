import { useState } from 'react';
import type { BridgeResult } from '#shared/bridge/contract';
import { isOpenSaleState, type OutageAction, type SaleView } from '#shared/sales';
import { useBridgeCall, type CallOf } from '../../hooks/use-bridge-call';
import type { SetSale } from './current-sale';
import { usePrintReceipt } from './use-print-receipt';

/**
 * The sale screen's calls to main and what it shows about them: the amount entry's "New sale",
 * a sale's buttons (check, cancel, retry, again, print) and its paid-twice alerts.
 */

/** "New sale" on the amount field: main opens the account for the amount (and note). */
export function useNewSale(onCreated: SetSale) {
  const call = useBridgeCall<SaleView>();
  /** Main's answer (null if it no longer counts); a created sale is already handed on. */
  async function create(amount: string, note: string): Promise<BridgeResult<SaleView> | null> {
    const trimmedNote = note.trim();
    const answer = await call.run((bridge) =>
      bridge.createSale(trimmedNote ? { amount, note: trimmedNote } : { amount }),
    );
    if (answer?.ok) onCreated(answer.value);
    return answer;
  }
  return { busy: call.busy, error: call.error, showError: call.showError, create };
}

export type SaleWork = 'check' | 'cancel' | 'retry' | 'receipt' | 'again' | 'outage';

/** What the buttons of a sale on screen do; one thing at a time, with one error and notice. */
export function useSaleActions(sale: SaleView, onSale: SetSale) {
  const call = useBridgeCall<SaleView>();
  const printer = usePrintReceipt();
  const [work, setWork] = useState<SaleWork>('check');
  const [printing, setPrinting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  async function run(next: SaleWork, callOf: CallOf<SaleView>): Promise<SaleView | null> {
    setWork(next);
    setNotice(null);
    const answer = await call.run(callOf);
    if (!answer?.ok) return null;
    onSale(answer.value);
    return answer.value;
  }

  async function check(): Promise<void> {
    const checked = await run('check', (bridge) => bridge.customerSaysPaid({ saleId: sale.id }));
    // Only when the check found nothing new: a check that just found a wrong amount has its
    // answer in the status box, and "not reported yet" would contradict it.
    if (
      checked &&
      isOpenSaleState(checked.state) &&
      checked.state !== 'confirming' &&
      checked.state === sale.state
    ) {
      setNotice('The bank has not reported this transfer yet. We keep checking.');
    }
  }

  async function printReceipt(): Promise<void> {
    setPrinting(true);
    call.showError(null);
    setNotice(null);
    const outcome = await printer.print(sale.id);
    setPrinting(false);
    call.showError(outcome.error);
    setNotice(outcome.notice);
  }

  return {
    busy: printing ? ('receipt' as const) : call.busy ? work : null,
    error: call.error,
    notice,
    printer,
    check,
    cancel: () => run('cancel', (bridge) => bridge.cancelSale({ saleId: sale.id })),
    retry: () => run('retry', (bridge) => bridge.retrySale({ saleId: sale.id })),
    /** An expired or cancelled sale again, for the same amount and note. */
    again: () =>
      run('again', (bridge) =>
        bridge.createSale({
          amount: (sale.amountKobo / 100).toFixed(2),
          ...(sale.note ? { note: sale.note } : {}),
        }),
      ),
    /** A sale that could not start for lack of connection, on the shop's standing account. */
    outage: () =>
      run('outage', (bridge) =>
        bridge.createOutageSale({
          amount: (sale.amountKobo / 100).toFixed(2),
          ...(sale.note ? { note: sale.note } : {}),
        }),
      ),
    /** What the cashier did about an unconfirmed sale, recorded on it. */
    record: (action: OutageAction) =>
      run('outage', (bridge) => bridge.recordOutageAction({ saleId: sale.id, action })),
    printReceipt,
  };
}

/**
 * "Refund noted" on a sale paid twice: main acknowledges each of its paid-twice alerts, then
 * the sale's view (owing nothing now) is read again; its event brings it to the display too.
 */
export function useRefundNoted(sale: SaleView, onSale: SetSale) {
  const call = useBridgeCall<SaleView>();
  async function note(): Promise<void> {
    const alertIds = sale.refundsOwed.map((refund) => refund.alertId);
    const answer = await call.run(async (bridge) => {
      for (const alertId of alertIds) {
        const acknowledged = await bridge.acknowledgeAlert({ alertId });
        if (!acknowledged.ok) return acknowledged;
      }
      return bridge.getSale({ saleId: sale.id });
    });
    if (answer?.ok) onSale(answer.value);
  }
  return { busy: call.busy, error: call.error, note };
}
