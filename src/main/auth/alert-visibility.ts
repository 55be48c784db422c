/**
 * Which open alerts a caller may see: the same rule as acting on them (ownership.ts) and
 * hearing them (event-visibility.ts). The owner sees every alert; a paired counter, those of its
 * till's sales; a cashier at the hub's pages, those of the sales recorded under their name; a
 * signed-out page, none. An alert about no sale is the shop's, so the owner's only. The
 * header's count and Activity's list are both this one read, so they cannot disagree.
 */
import type { Caller } from '#shared/bridge/contract';
import {
  ALL_ALERTS,
  listOpenAlerts,
  type AlertRow,
  type AlertScope,
} from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { effectiveRole, pairedCounterOf } from './caller';

export function alertScopeOf(caller: Caller): AlertScope {
  if (effectiveRole(caller) === 'owner') return ALL_ALERTS;
  if (caller.via === 'counter') {
    const counter = pairedCounterOf(caller);
    return counter ? { type: 'till', tillId: counter.tillId } : { type: 'none' };
  }
  return caller.name === null ? { type: 'none' } : { type: 'cashier', name: caller.name };
}

/** The open alerts this caller may see, newest first. */
export function visibleOpenAlerts(db: Db, caller: Caller): AlertRow[] {
  return listOpenAlerts(db, alertScopeOf(caller));
}
