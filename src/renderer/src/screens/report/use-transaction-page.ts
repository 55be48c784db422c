import { useEffect, useState } from 'react';
import type { InflowView } from '#shared/sales';
import type { TransactionListView } from '#shared/views';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';

export const PAGE_SIZE = 50;
export type StatusFilter = InflowView['status'] | 'all';

export interface PageRequest {
  readonly day: string | undefined;
  readonly status: StatusFilter;
  readonly search: string;
  readonly offset: number;
  /** Bumped to read the same page again (after a sync). */
  readonly reloadKey: number;
}

export interface TransactionPage {
  readonly rows: readonly InflowView[];
  readonly total: number | null;
  /** Until the latest request has its answer. */
  readonly loading: boolean;
  readonly error: string | null;
}

interface Answer {
  /** The request answered last, as a key. */
  readonly request: string | null;
  readonly rows: readonly InflowView[];
  readonly total: number | null;
  readonly error: string | null;
}

const NO_ANSWER: Answer = { request: null, rows: [], total: null, error: null };

/**
 * One page of the day's transactions as main answers it; an answer to an older request that
 * comes late is dropped. A failed read keeps the rows shown before it.
 */
export function useTransactionPage({
  day,
  status,
  search,
  offset,
  reloadKey,
}: PageRequest): TransactionPage {
  const { run } = useBridgeCall<TransactionListView>();
  const [answer, setAnswer] = useState<Answer>(NO_ANSWER);
  const request = JSON.stringify([day, status, search, offset, reloadKey]);

  useEffect(() => {
    void run((bridge) =>
      bridge.listTransactions({
        ...(day ? { day } : {}),
        ...(status === 'all' ? {} : { status }),
        ...(search ? { search } : {}),
        offset,
        limit: PAGE_SIZE,
      }),
    ).then((result) => {
      if (!result) return; // an older request answered late
      setAnswer((previous) =>
        result.ok
          ? { request, rows: result.value.rows, total: result.value.total, error: null }
          : { ...previous, request, error: failureOf(result.error).words },
      );
    });
  }, [run, day, status, search, offset, reloadKey, request]);

  return {
    rows: answer.rows,
    total: answer.total,
    loading: answer.request !== request,
    error: answer.error,
  };
}
