import type { SaleView } from '#shared/sales';
import { paidLateKey, type ExceptionResolutionView } from '#shared/views';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import type { SetSale } from './current-sale';

/**
 * What was done about a sale paid after it was cancelled or expired, recorded from the sale
 * screen: the report's own resolution of the same case (one record, the owner's channel), so
 * the report and Activity show it done too.
 */
export function usePaidLateResolution(sale: SaleView, onSale: SetSale) {
  const call = useBridgeCall<ExceptionResolutionView>();

  /** Whether main recorded it. */
  async function record(
    action: 'goods_given' | 'refunded',
    bankReference: string | null,
  ): Promise<boolean> {
    const answer = await call.run((bridge) =>
      bridge.resolveException({ key: paidLateKey(sale.id), action, bankReference }),
    );
    if (!answer?.ok) return false;
    // Main sends the sale again as well; this shows it at once.
    onSale({ ...sale, lateResolution: answer.value.resolution });
    return true;
  }

  return {
    busy: call.busy,
    error: call.error,
    errorField: call.errorField,
    clearError: () => call.showError(null),
    gaveGoods: () => record('goods_given', null),
    refunded: (bankReference: string) => record('refunded', bankReference),
  };
}
