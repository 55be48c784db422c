import { useEffect, useEffectEvent, useState } from 'react';
import type { ActivityView } from '#shared/bridge/contract';
import { isOpenSaleState, PAID_TWICE, type AlertView, type SaleView } from '#shared/sales';
import { useBridgeEvent } from '../../bridge-context';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import type { SetSale } from './current-sale';

/**
 * Money for another sale of this till that arrived while the sale on screen was open: the
 * customer who was asked to pay again may already have paid the earlier one. Built from what
 * main already tells this page (its sales, their paid time, the paid-twice alerts): main's
 * ownership rules decide what reaches it, and this keeps only the till's own sales.
 */
export interface OtherSalePaid {
  /** One arrival: a sale turning paid, or one paid-twice alert. */
  readonly key: string;
  /** The sale the money is for, as main last said. */
  readonly sale: SaleView;
  readonly amountKobo: number;
  /** When the till recorded the money (main's clock). */
  readonly at: number;
}

/**
 * Whether `other` was paid while `current` was open: another sale of the same till, paid (in
 * time or late) at or after the current sale began. A late payment already dealt with is not.
 */
export function paidWhileOpen(current: SaleView, other: SaleView): OtherSalePaid | null {
  if (other.id === current.id || other.tillId !== current.tillId) return null;
  if (other.state !== 'paid' && other.state !== 'paid_late') return null;
  if (other.paidAt === null || other.paidAt < current.createdAt) return null;
  if (other.lateResolution !== null) return null;
  return { key: `paid:${other.id}`, sale: other, amountKobo: other.amountKobo, at: other.paidAt };
}

/**
 * Whether a paid-twice alert tells of money for `other` while `current` was open. A one-off
 * account takes only its exact amount, so the second payment is the sale's amount.
 */
export function paidTwiceWhileOpen(
  current: SaleView,
  alert: AlertView,
  other: SaleView,
): OtherSalePaid | null {
  if (alert.kind !== PAID_TWICE || alert.saleId !== other.id) return null;
  if (alert.acknowledgedAt !== null || alert.createdAt < current.createdAt) return null;
  if (other.id === current.id || other.tillId !== current.tillId) return null;
  return {
    key: `twice:${alert.id}`,
    sale: other,
    amountKobo: other.amountKobo,
    at: alert.createdAt,
  };
}

/** Everything main's activity says arrived for other sales while `current` was open. */
export function arrivalsIn(current: SaleView, activity: ActivityView): readonly OtherSalePaid[] {
  const found: OtherSalePaid[] = [];
  for (const other of activity.sales) {
    const paid = paidWhileOpen(current, other);
    if (paid) found.push(paid);
  }
  for (const alert of activity.alerts) {
    const other = activity.sales.find((s) => s.id === alert.saleId);
    const twice = other ? paidTwiceWhileOpen(current, alert, other) : null;
    if (twice) found.push(twice);
  }
  return found;
}

/** The arrivals with `next` in its place: added, replaced, or (null for a sale) taken away. */
function withArrival(
  shown: readonly OtherSalePaid[],
  key: string,
  next: OtherSalePaid | null,
): readonly OtherSalePaid[] {
  const rest = shown.filter((a) => a.key !== key);
  return next ? [...rest, next] : rest;
}

const DISMISSED_KEY = 'till.other-sale-paid-dismissed';

/** What "Different customer" put aside for this sale; kept in the tab so a reload keeps it. */
function readDismissed(saleId: number): readonly string[] {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(DISMISSED_KEY) ?? 'null') as unknown;
    if (typeof kept !== 'object' || kept === null) return [];
    const { saleId: keptFor, keys } = kept as { saleId?: unknown; keys?: unknown };
    if (keptFor !== saleId || !Array.isArray(keys)) return [];
    return keys.filter((key): key is string => typeof key === 'string');
  } catch {
    return [];
  }
}

function keepDismissed(saleId: number, keys: readonly string[]): void {
  window.sessionStorage.setItem(DISMISSED_KEY, JSON.stringify({ saleId, keys }));
}

/**
 * The newest money for another sale that arrived while `current` is open, with what the cashier
 * does about it: cancel this sale (the same cancel as its own button; the till then shows the
 * paid sale, where its goods-or-refund choice is) or say the payer is a different customer (the
 * banner goes; the sale stays). Opening the earlier sale is the till's one way off a sale
 * (leave-sale.ts).
 */
export function useOtherSalePaid(current: SaleView, onSale: SetSale) {
  const { run: readActivity } = useBridgeCall<ActivityView>();
  const { run: readSale } = useBridgeCall<SaleView>();
  const cancelCall = useBridgeCall<SaleView>();
  const [arrivals, setArrivals] = useState<readonly OtherSalePaid[]>([]);
  const [dismissed, setDismissed] = useState<readonly string[]>(() => readDismissed(current.id));

  // What arrived before this page showed the sale (another screen, a reload): main's record.
  const takeActivity = useEffectEvent((activity: ActivityView) => {
    const found = arrivalsIn(current, activity);
    setArrivals((shown) => found.reduce((all, a) => withArrival(all, a.key, a), shown));
  });
  const saleId = current.id;
  useEffect(() => {
    // Read once per sale: later news comes by event.
    void readActivity((bridge) => bridge.getActivity({})).then((answer) => {
      if (answer?.ok) takeActivity(answer.value);
    });
  }, [readActivity, saleId]);

  useBridgeEvent('sale-changed', (changed) => {
    if (changed.id === current.id) return;
    setArrivals((shown) => {
      const next = paidWhileOpen(current, changed);
      // A paid-twice arrival follows its sale too (Open shows it as main has it now).
      const moved = shown.map((a) => (a.sale.id === changed.id ? { ...a, sale: changed } : a));
      return withArrival(moved, `paid:${changed.id}`, next);
    });
  });

  useBridgeEvent('alert', (alert) => {
    if (alert.kind !== PAID_TWICE || alert.saleId === null || alert.saleId === current.id) return;
    const saleId = alert.saleId;
    void readSale((bridge) => bridge.getSale({ saleId })).then((answer) => {
      if (!answer?.ok) return;
      const twice = paidTwiceWhileOpen(current, alert, answer.value);
      if (twice) setArrivals((shown) => withArrival(shown, twice.key, twice));
    });
  });

  const waiting = arrivals.filter((a) => !dismissed.includes(a.key));
  const newest = waiting.reduce<OtherSalePaid | null>(
    (best, a) => (best === null || a.at > best.at ? a : best),
    null,
  );
  const shown = isOpenSaleState(current.state) ? newest : null;

  return {
    arrival: shown,
    busy: cancelCall.busy,
    error: cancelCall.error,
    /** This sale is the customer's second try: cancel it and show the one they paid. */
    async cancelThis(): Promise<void> {
      if (!shown) return;
      const answer = await cancelCall.run((bridge) => bridge.cancelSale({ saleId: current.id }));
      if (answer?.ok) onSale(shown.sale);
    },
    /** Someone else paid the earlier sale: this banner goes, this sale stays. */
    differentCustomer(): void {
      if (!shown) return;
      const keys = [...dismissed, shown.key];
      keepDismissed(current.id, keys);
      setDismissed(keys);
    },
  };
}
