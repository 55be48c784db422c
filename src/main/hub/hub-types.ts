/**
 * The seams of the shop hub inside main. The core owns the counters (the registry in SQLite and
 * the one-time pairing codes); a shell owns the LAN listener (it needs the renderer bundle and a
 * port) and attaches it to the core as a LanControl. Neither reaches into the other.
 */
import type {
  CounterIdentity,
  HubView,
  LanListenerView,
  PairingLinkView,
  PairingResult,
} from '#shared/hub';

/** Where the LAN listener listens: an IP address of this computer (0.0.0.0: all) and a port. */
export interface LanAddress {
  readonly host: string;
  readonly port: number;
}

/** Why the listener cannot move to a new address, next to the setting that names it. */
export interface LanMoveRefusal {
  readonly field: 'hub.lanHost' | 'hub.lanPort';
  readonly message: string;
}

/** What a shell's LAN listener offers the core's hub handlers. */
export interface LanControl {
  view(): LanListenerView;
  /** Starts or stops the listener now, and keeps the choice in Settings. */
  setEnabled(enabled: boolean): Promise<LanListenerView>;
  /**
   * Before Settings save a new address: while the listener is on, it opens there first (the old
   * one closes after), or says why it cannot (the old one keeps working, nothing moved). Off, or
   * set for this run by a start flag: nothing to try now (null).
   */
  moveTo(address: LanAddress): Promise<LanMoveRefusal | null>;
  /** The link a counter opens for this code (throws a coded error when the listener is off). */
  pairingUrl(code: string): string;
  /** Counters whose event stream is open now. */
  connectedCounterIds(): ReadonlySet<number>;
}

/** Who a token on the LAN listener stands for. */
export type CounterTokenResolution =
  | { readonly kind: 'counter'; readonly counter: CounterIdentity }
  | { readonly kind: 'revoked'; readonly counterId: number }
  | { readonly kind: 'unknown' };

/** The core's hub: counters and pairing. */
export interface Hub {
  /** The shell that can host counters attaches its LAN listener; until then `available` is false. */
  attachLan(control: LanControl): void;
  view(): HubView;
  /** A new one-time code for a counter of this name (needs the LAN listener running). */
  createPairingLink(name: string): PairingLinkView;
  /** Takes a pairing code once: the new counter and its token; a coded error otherwise. */
  pair(code: string): PairingResult;
  /** The counter a token belongs to, now (a revoked counter's token says so). */
  resolveToken(token: string): CounterTokenResolution;
  /** The counter made a request: its last contact (kept, written at most every 30 s). */
  touch(counterId: number): void;
  update(counterId: number, change: { readonly name?: string; readonly tillId?: string }): void;
  revoke(counterId: number): void;
  /** Called with a counter's id when it is revoked (the listener ends its streams at once). */
  onRevoked(listener: (counterId: number) => void): () => void;
  /** Turns the attached LAN listener on or off (a coded HUB_UNAVAILABLE error without one). */
  setLanEnabled(enabled: boolean): Promise<void>;
  /** LanControl.moveTo of the attached listener; null without one (the setting is just kept). */
  moveLan(address: LanAddress): Promise<LanMoveRefusal | null>;
  /**
   * A counter as it is now (renamed, another till id), or null once revoked or unknown: an event
   * stream opened earlier is checked against this, not against what it was at opening.
   */
  current(counterId: number): CounterIdentity | null;
}
