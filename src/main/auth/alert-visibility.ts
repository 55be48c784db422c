/**
 * Which open alerts a caller may see: those of the sales the caller may see (ownership.ts's
 * scopeOf, the same rule as acting on them and hearing them). An alert about no sale is the
 * shop's, so the owner's only. The header's count and Activity's list are both this one read,
 * so they cannot disagree.
 */
import type { Caller } from '#shared/bridge/contract';
import { listOpenAlerts, type AlertRow } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { scopeOf } from './ownership';

/** The open alerts this caller may see, newest first. */
export function visibleOpenAlerts(db: Db, caller: Caller): AlertRow[] {
  return listOpenAlerts(db, scopeOf(caller));
}
