/**
 * Ownership by construction: a channel that acts on one sale or alert says so in the contract
 * table (`owns`), and dispatch checks the caller against the item before the handler runs. The
 * rule, in one place:
 * - the owner may act on every sale and every alert;
 * - a counter paired to the hub, on its own till's sales (whoever is signed in at it);
 * - a cashier at the hub's own pages, on the sales recorded under their name;
 * - an alert belongs to whoever owns the sale it is about; an alert about no sale (an unmatched
 *   transfer, a changed callback address) is the shop's, so the owner's only.
 * A sale or alert that does not exist is "not found" for everyone, the owner included.
 */
import type { BridgeError, Caller, Handlers, OwnedInput } from '#shared/bridge/contract';
import { EVERY_SALE, type SaleScope } from '#main/store/alerts-repo';
import { effectiveRole, pairedCounterOf } from './caller';

export type { SaleScope } from '#main/store/alerts-repo';

/** Whose a sale is: the cashier recorded on it and the till that made it. */
export interface SaleOwner {
  readonly cashier: string | null;
  readonly tillId: string | null;
}

/** What dispatch needs to know about an item, read from the active environment's database. */
export interface OwnershipLookup {
  /** The sale's owner, or undefined when there is no such sale. */
  sale(saleId: number): SaleOwner | undefined;
  /** The sale an alert is about (null: the shop's), or undefined when there is no such alert. */
  alert(alertId: number): { readonly saleId: number | null } | undefined;
}

/**
 * Where a handler table keeps its lookup. The core's table carries it (withOwnership), so every
 * shell that dispatches the core's handlers (or a copy spread from them) checks ownership; a
 * table without one refuses every non-owner call on an owned channel (fail closed).
 */
export const OWNERSHIP: unique symbol = Symbol('till.ownership');

export type OwnedHandlers = Handlers & { readonly [OWNERSHIP]?: OwnershipLookup };

export function withOwnership(handlers: Handlers, lookup: OwnershipLookup): OwnedHandlers {
  return { ...handlers, [OWNERSHIP]: lookup };
}

function refused(message: string): BridgeError {
  return { code: 'FORBIDDEN', message };
}

/**
 * Whose sales this caller may see and act on: THE rule. Dispatch's refusals, the events a
 * listener hears (event-visibility.ts), the alerts counted and listed (alert-visibility.ts) and
 * Activity's sales all ask it; none compares a sale's till or cashier with the caller itself.
 */
export function scopeOf(caller: Caller): SaleScope {
  if (effectiveRole(caller) === 'owner') return EVERY_SALE;
  if (caller.via === 'counter') {
    const counter = pairedCounterOf(caller);
    return counter ? { type: 'till', tillId: counter.tillId } : { type: 'none' };
  }
  return caller.name === null ? { type: 'none' } : { type: 'cashier', name: caller.name };
}

/** Whether a sale with this owner is inside the scope. */
export function inScope(scope: SaleScope, owner: SaleOwner): boolean {
  switch (scope.type) {
    case 'all':
      return true;
    case 'till':
      return owner.tillId === scope.tillId;
    case 'cashier':
      return owner.cashier === scope.name;
    case 'none':
      return false;
  }
}

/** Whether this caller may see and act on a sale with this owner. */
export function mayTouchSale(caller: Caller, owner: SaleOwner): boolean {
  return inScope(scopeOf(caller), owner);
}

/** Why this caller may not act on this sale, or null when it may. */
function saleRefusal(caller: Caller, owner: SaleOwner): BridgeError | null {
  if (mayTouchSale(caller, owner)) return null;
  if (caller.via !== 'counter') return refused('This sale belongs to another cashier.');
  return pairedCounterOf(caller)
    ? refused('This sale belongs to another till of the shop.')
    : refused('This counter is not paired with the hub.');
}

/**
 * Why `caller` may not act on the item `declared` names in `input`, or null when it may. Runs
 * after the input was validated (the id is a positive integer) and before the handler.
 */
export function ownershipRefusal(
  declared: OwnedInput,
  input: unknown,
  caller: Caller,
  lookup: OwnershipLookup | undefined,
): BridgeError | null {
  const id = (input as Readonly<Record<string, unknown>>)[declared.field];
  if (typeof id !== 'number') return null; // an optional id left out: nothing to own
  if (!lookup) {
    return effectiveRole(caller) === 'owner'
      ? null
      : refused('This till cannot check whose item this is, so only the owner may act on it.');
  }
  if (declared.item === 'sale') {
    const owner = lookup.sale(id);
    if (!owner) return { code: 'SALE_NOT_FOUND', message: `Sale ${id} does not exist.` };
    return saleRefusal(caller, owner);
  }
  const alert = lookup.alert(id);
  if (!alert) return { code: 'ALERT_NOT_FOUND', message: `Alert ${id} does not exist.` };
  if (scopeOf(caller).type === 'all') return null;
  const owner = alert.saleId === null ? undefined : lookup.sale(alert.saleId);
  if (!owner) return refused('Only the owner can act on this alert: it is about the whole shop.');
  return saleRefusal(caller, owner) === null
    ? null
    : refused('Only the owner can act on this alert: it is about a sale that is not yours.');
}
