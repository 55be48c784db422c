import type { CounterIdentity } from '#shared/hub';
import type { StatusView } from '#shared/views';

/**
 * The till's status as a paired counter sees it: its own till id (the footer and its receipts
 * name it). Its open alerts are counted by the caller's rule already (auth/alert-visibility.ts).
 */
export function statusForCounter(status: StatusView, counter: CounterIdentity): StatusView {
  return { ...status, tillId: counter.tillId };
}
