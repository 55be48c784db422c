/**
 * Who calls the bridge and what a page may know of its own session: the contract's caller types
 * (re-exported by contract.ts, where the channels that use them are).
 */
import type { CounterIdentity } from '../hub';
import type { Settings } from '../settings-schema';

export type Role = 'owner' | 'cashier';
/**
 * How a call reached main: the desktop window, the browser shell, or a counter paired to a hub
 * (always a cashier, whatever the PINs).
 */
export type CallerVia = 'desktop' | 'browser' | 'counter';

/**
 * Who makes a call, as main resolved it from the session. A cashier with no name is signed out
 * (an owner PIN is set and nobody signed in at this counter).
 */
export interface Caller {
  readonly role: Role;
  /** The signed-in cashier's name (recorded on sales), or null. */
  readonly name: string | null;
  readonly sessionId: string;
  readonly via: CallerVia;
  /** A counter paired to this hub (via 'counter'): it acts on its own till's sales only. */
  readonly counter?: CounterIdentity;
}

/** What a page may know about its own session: who it is and how to sign in. */
export interface SessionView {
  readonly role: Role;
  /** The signed-in cashier, or null. */
  readonly name: string | null;
  /** Whether an owner PIN is set: without one every session is owner. */
  readonly ownerPinSet: boolean;
  /** This session's owner unlock lasts until then unless an owner call renews it; null if none. */
  readonly ownerUntil: number | null;
  /** The cashiers who can sign in here (from Settings) and whether each has a PIN. */
  readonly cashiers: readonly { readonly name: string; readonly pinSet: boolean }[];
  /** The owner's option: cashiers need their own PIN to sign in. */
  readonly cashierPinsRequired: boolean;
  /** The chime and the voice on a paid sale: every counter needs them, whatever the role. */
  readonly sounds: Settings['sounds'];
  /** This page is a counter paired to a hub: its name and its own till id; else null. */
  readonly counter: CounterIdentity | null;
}
