/**
 * The shop hub: one machine holds the keys, the tunnel, the listener and the database; counters
 * (a browser on the shop's network, or the desktop app in counter mode) pair with it and sell
 * through it with a token of their own. These are the shapes both sides of the bridge see.
 */
import type { SaleView } from './sales';

/** A pairing link works once, for this long after the owner made it. */
export const PAIRING_TTL_MS = 10 * 60_000;

/** The LAN listener's port unless Settings say otherwise (counters keep it across restarts). */
export const DEFAULT_LAN_PORT = 7443;

/** Where the LAN listener listens unless Settings say one address: every address of this computer. */
export const DEFAULT_LAN_HOST = '0.0.0.0';

/** A counter paired to this hub, as main knows it from the counter's token on each request. */
export interface CounterIdentity {
  readonly id: number;
  /** What the owner called it ("Front counter"). */
  readonly name: string;
  /** Its own till id: its sales carry it, and their references its prefix. */
  readonly tillId: string;
}

export interface PairedCounterView extends CounterIdentity {
  readonly pairedAt: number;
  /** The last request the hub had from it (a call or its event stream), or null. */
  readonly lastContactAt: number | null;
  /** Whether its event stream is open now. */
  readonly connected: boolean;
  /** When the owner revoked it; a revoked counter is refused and listed for the record. */
  readonly revokedAt: number | null;
}

export interface LanListenerView {
  /** The owner's choice (Settings), or the start flag --lan for this run. */
  readonly enabled: boolean;
  readonly running: boolean;
  /** The address counters use (https, this machine's LAN address), or null when off. */
  readonly url: string | null;
  readonly port: number;
  /** SHA-256 of the hub's certificate, upper-case hex in pairs ("AB:CD:…"), or null when off. */
  readonly fingerprint: string | null;
  /** Why it is not running although enabled (port taken, ...), in words; or null. */
  readonly problem: string | null;
  /** This computer's IPv4 addresses on the shop's network now (what "LAN address" may name). */
  readonly addresses: readonly string[];
  /** The address or port was given at start (--lan-host, --lan-port): Settings' apply next start. */
  readonly setForThisRun: boolean;
}

export interface HubView {
  /** Whether this shell can host counters (false where no LAN listener can be started). */
  readonly available: boolean;
  readonly lan: LanListenerView;
  /** Every counter ever paired, newest first; revoked ones stay listed. */
  readonly counters: readonly PairedCounterView[];
}

export interface PairingLinkView {
  /** https://<hub>:<port>/#/pair&code=…&fp=… — also shown as a QR code. */
  readonly url: string;
  /** The name the counter will get. */
  readonly name: string;
  readonly expiresAt: number;
  /** The certificate fingerprint the link carries, as LanListenerView.fingerprint. */
  readonly fingerprint: string;
}

/** What a counter's page gets back for a good pairing code (POST /api/pair). */
export interface PairingResult {
  /** The counter's own token (shown once; the hub keeps only its hash). */
  readonly token: string;
  readonly counter: CounterIdentity;
}

/** What a customer-display page is sent when its stream opens, and again on each change. */
export interface DisplayStateView {
  readonly shopName: string;
  readonly tillId: string;
  /** The sale the customer should see now (the newest open one of this till), or null. */
  readonly sale: SaleView | null;
}
