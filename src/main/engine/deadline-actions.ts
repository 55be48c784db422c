import { formatNaira } from '#shared/money';
import { isOpenSaleState } from '#shared/sales';
import { countOf } from '#shared/plural';
import type { SaleRow } from '#main/store/sales-repo';
import type { AppliedCheck } from './confirmation';
import { decideAtDeadline, type DeadlineDecision } from './deadline';
import { changeSale, raiseEngineAlert, type EngineContext } from './engine-context';

const UNCLEAR_REASON =
  'Checking with the provider: it gave no clear answer at the deadline, so the sale stays open until it does.';

export interface DecidedCheck {
  readonly sale: SaleRow;
  /** The deadline decision, when the check ran at or past the sale's deadline. */
  readonly decision: DeadlineDecision | null;
}

/**
 * A check at or past an open sale's deadline (its final check, or any later one) decides its
 * fate with decideAtDeadline: expired only on conclusive evidence, kept open (confirming) while
 * the provider's answer is unclear, and expired with a warning when the grace period ends
 * without a clear answer.
 */
export function decidePastDeadline(ctx: EngineContext, applied: AppliedCheck): DecidedCheck {
  const { sale } = applied;
  const now = ctx.scheduler.now();
  if (sale.expiresAt === null || !isOpenSaleState(sale.state) || sale.state === 'creating') {
    return { sale, decision: null };
  }
  if (now < sale.expiresAt + ctx.policy.expiryCheckDelayMs) return { sale, decision: null };
  const decision = decideAtDeadline({
    evidence: applied.evidence,
    now,
    graceEndsAt: sale.expiresAt + ctx.policy.lateGraceMs,
  });
  return { sale: act(ctx, sale, decision), decision };
}

function act(ctx: EngineContext, sale: SaleRow, decision: DeadlineDecision): SaleRow {
  const open = ['awaiting_payment', 'confirming', 'wrong_amount'] as const;
  switch (decision.kind) {
    case 'settled':
      return sale;
    case 'expire':
      return ctx.publisher.atomically(
        () =>
          changeSale(
            ctx,
            sale.id,
            {
              state: 'expired',
              cause: 'deadline',
              reason:
                sale.state === 'wrong_amount'
                  ? 'Expired: only a wrong amount arrived, and it was rejected.'
                  : 'Expired unpaid.',
            },
            open,
          ) ?? sale,
      );
    case 'keep-checking':
      if (sale.state === 'confirming') return sale;
      return ctx.publisher.atomically(
        () =>
          changeSale(
            ctx,
            sale.id,
            { state: 'confirming', cause: 'deadline-unclear', reason: UNCLEAR_REASON },
            ['awaiting_payment', 'wrong_amount'],
          ) ?? sale,
      );
    case 'give-up':
      return ctx.publisher.atomically(() => {
        const minutes = Math.round(ctx.policy.lateGraceMs / 60_000);
        const expired = changeSale(
          ctx,
          sale.id,
          {
            state: 'expired',
            cause: 'deadline-unresolved',
            reason: `Expired: the provider gave no clear answer within ${countOf(minutes, 'minute')} of the deadline. A payment found later still shows.`,
          },
          open,
        );
        if (expired) {
          raiseEngineAlert(ctx, {
            level: 'warning',
            kind: 'deadline_unresolved',
            saleId: sale.id,
            message: `Sale #${sale.id} (${formatNaira(sale.amountKobo)}): the provider gave no clear answer about its payment for ${countOf(minutes, 'minute')} after the deadline, so it is marked expired. Check the transfer with the provider or the customer's receipt; if the money came in time, the next sync marks the sale paid.`,
            dedupeKey: `deadline_unresolved:${sale.id}`,
          });
        }
        return expired ?? sale;
      });
  }
}
