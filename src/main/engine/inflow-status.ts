/**
 * The inflow status rule and its one write path. Every way a transfer is stored (one report from
 * a callback or a check through upsertInflow, a listing page in bulk through
 * sync/listing-page.ts) decides the status here and keeps each change in the history here; the
 * statements are the store's (store/inflows-repo.ts, store/listing-page-repo.ts).
 */
import type { Db } from '#main/store/database';
import {
  getInflowBySession,
  insertReportedInflow,
  recordInflowStatusChange,
  updateReportedInflow,
  type InflowInput,
  type InflowRow,
  type InflowSource,
  type InflowStatus,
} from '#main/store/inflows-repo';

export interface StatusObservation {
  readonly status: InflowStatus;
  readonly observedAt: number;
}

export type StatusDecision = StatusObservation & { readonly changed: boolean };

/**
 * The provider's newest word wins, whatever it says (success, failed and pending replace one
 * another: a payment can settle late or be reversed); an observation older than the stored one
 * never changes it (a listing page fetched before a status check must not undo what the check
 * saw); and 'unknown' (a status the interface does not name) never replaces a known one. A
 * report that repeats the stored status moves its observation time on, so an older report
 * arriving later cannot flip it.
 */
export function decideInflowStatus(
  stored: StatusObservation,
  seen: StatusObservation,
): StatusDecision {
  const keep = { ...stored, changed: false };
  if (seen.observedAt < stored.observedAt) return keep;
  if (seen.status === 'unknown' && stored.status !== 'unknown') return keep;
  if (seen.status === stored.status) return { ...seen, changed: false };
  return { ...seen, changed: true };
}

/** A stored inflow as far as its status goes. */
export interface StoredInflowStatus {
  readonly id: number;
  readonly status: InflowStatus;
  readonly statusObservedAt: number;
}

/**
 * Decides the status of a stored inflow from what the provider now says, has `write` store the
 * decision (with whatever else the caller's path updates), and keeps a change in the history.
 * The caller's transaction covers all of it.
 */
export function observeInflowStatus(
  db: Db,
  stored: StoredInflowStatus,
  seen: StatusObservation,
  source: InflowSource,
  now: number,
  write: (next: StatusDecision) => void,
): StatusDecision {
  const next = decideInflowStatus(
    { status: stored.status, observedAt: stored.statusObservedAt },
    seen,
  );
  write(next);
  if (next.changed) {
    recordInflowStatusChange(db, {
      inflowId: stored.id,
      recordedAt: now,
      observedAt: seen.observedAt,
      fromStatus: stored.status,
      toStatus: next.status,
      source,
    });
  }
  return next;
}

export interface UpsertResult {
  readonly row: InflowRow;
  /** A row for this session_id did not exist before. */
  readonly inserted: boolean;
  /** The stored status changed (e.g. pending -> success; true for a new row). */
  readonly statusChanged: boolean;
  /** The stored status before this report; null for a new row. */
  readonly previousStatus: InflowStatus | null;
  /** The report's amount disagrees with the stored one (which is kept). */
  readonly amountConflict: boolean;
}

/**
 * One row per provider transaction, keyed by session_id, whatever the number of callbacks, polls
 * and listing pages that report it. The status follows decideInflowStatus (each change kept in
 * the history); `observedAt` is when the provider said it (default `now`). The amount of an
 * existing row is never changed: a report that disagrees is returned as a conflict instead.
 */
export function upsertInflow(
  db: Db,
  input: InflowInput,
  source: InflowSource,
  now: number,
  observedAt: number = now,
): UpsertResult {
  return db.transaction((): UpsertResult => {
    const existing = getInflowBySession(db, input.sessionId);
    if (!existing) {
      const row = insertReportedInflow(db, input, source, now, observedAt);
      return {
        row,
        inserted: true,
        statusChanged: true,
        previousStatus: null,
        amountConflict: false,
      };
    }
    const next = observeInflowStatus(
      db,
      existing,
      { status: input.status, observedAt },
      source,
      now,
      (decided) => updateReportedInflow(db, existing.id, decided, input, source, now),
    );
    return {
      row: getInflowBySession(db, input.sessionId) as InflowRow,
      inserted: false,
      statusChanged: next.changed,
      previousStatus: existing.status,
      amountConflict: existing.amountKobo !== input.amountKobo,
    };
  })();
}
