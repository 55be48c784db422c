/**
 * What the counter window trusts: the hub's certificate only when it is the pinned one, and no
 * page but the hub's. Pure, in the style of security/trusted-sender.ts, so every refusal is
 * unit-tested without Electron.
 */
import { bareHost, fingerprintPairs } from './pairing-link';

/** The hub this counter was paired with. */
export interface PinnedHub {
  /** `https://<address>:<port>` */
  readonly hubOrigin: string;
  /** SHA-256 of its certificate, 64 lower-case hex digits. */
  readonly fingerprint: string;
}

const ELECTRON_SHA256 = /^sha256\/([A-Za-z0-9+/]{43}=)$/;

/**
 * Electron's Certificate.fingerprint ("sha256/<base64 of the DER's SHA-256>") as 64 lower-case
 * hex digits, or null for anything else (another hash, a malformed value).
 */
export function electronFingerprintHex(fingerprint: string): string | null {
  const match = ELECTRON_SHA256.exec(fingerprint.trim());
  if (!match?.[1]) return null;
  const bytes = Buffer.from(match[1], 'base64');
  return bytes.length === 32 ? bytes.toString('hex') : null;
}

/** What Electron's certificate verify proc answers (its callback's numbers, in words). */
export type CertificateVerdict =
  /** The pinned certificate of the hub: trusted although no authority signed it. */
  | 'accept'
  /** The hub's address with another certificate: refused, whatever signed it. */
  | 'refuse'
  /** Not the hub: Chromium's own checks decide. */
  | 'chromium';

/** Numbers of setCertificateVerifyProc's callback: 0 trusts, -2 refuses, -3 keeps Chromium's result. */
export const VERIFY_PROC_RESULT: Readonly<Record<CertificateVerdict, number>> = {
  accept: 0,
  refuse: -2,
  chromium: -3,
};

/**
 * The pin, as the verify proc sees a connection: a host name (no port, no scheme) and the
 * certificate's fingerprint. The hub's host is held to the pin on every port, and even a
 * certificate an authority signed is refused there: a look-alike on the shop network cannot
 * stand in for the hub.
 */
export function certificateVerdict(input: {
  readonly hostname: string;
  readonly certFingerprint: string;
  readonly pinned: PinnedHub;
}): CertificateVerdict {
  const hubHost = bareHost(new URL(input.pinned.hubOrigin).hostname);
  if (bareHost(input.hostname) !== hubHost) return 'chromium';
  return electronFingerprintHex(input.certFingerprint) === input.pinned.fingerprint
    ? 'accept'
    : 'refuse';
}

/**
 * The counter window's navigation rule: only pages of the hub's origin (same scheme, address and
 * port). Everything else, a redirect included, is refused; links out are never opened.
 */
export function isHubUrl(url: string | null | undefined, hubOrigin: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      parsed.origin === hubOrigin &&
      !parsed.username &&
      !parsed.password
    );
  } catch {
    return false;
  }
}

export interface CounterDialog {
  readonly type: 'error' | 'warning' | 'question';
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  readonly buttons: readonly string[];
  readonly defaultId: number;
  readonly cancelId: number;
}

/** Shown when the hub's address answers with a certificate that is not the pinned one. */
export function pinMismatchDialog(input: {
  readonly pinned: PinnedHub;
  /** Electron's fingerprint of the certificate that was offered. */
  readonly presented: string;
}): CounterDialog {
  const presentedHex = electronFingerprintHex(input.presented);
  return {
    type: 'error',
    title: 'Not the paired hub',
    message: `The machine at ${input.pinned.hubOrigin} is not the hub this counter was paired with.`,
    detail: [
      'It showed a different certificate, so this counter refused to connect. Someone on the network may be pretending to be the hub, or the hub made a new certificate (its data folder was reset).',
      `Expected: ${fingerprintPairs(input.pinned.fingerprint)}`,
      `Offered: ${presentedHex ? fingerprintPairs(presentedHex) : input.presented}`,
      'Ask the owner to compare the fingerprint on the hub\'s Counters screen, add this counter again, and start it with the new link (--counter "<link>").',
    ].join('\n\n'),
    buttons: ['Quit', 'Leave counter mode'],
    defaultId: 0,
    cancelId: 0,
  };
}

/** The answer to pinMismatchDialog's second button. */
export const PIN_MISMATCH_LEAVE = 1;

/** Asked before "Leave counter mode" turns this PC back into a till of its own. */
export function leaveCounterModeDialog(hubOrigin: string): CounterDialog {
  return {
    type: 'question',
    title: 'Leave counter mode',
    message: 'Stop selling through the hub on this PC?',
    detail: `This PC forgets the hub at ${hubOrigin} and restarts as a till of its own (it will ask for the provider keys). Ask the owner to revoke this counter on the hub's Counters screen.`,
    buttons: ['Cancel', 'Leave counter mode'],
    defaultId: 0,
    cancelId: 0,
  };
}

/** The answer to leaveCounterModeDialog that goes ahead. */
export const LEAVE_CONFIRMED = 1;

/** The answer to counterStartFailedDialog's "Leave counter mode". */
export const START_FAILED_LEAVE = 1;

/** Shown instead of starting when the link or the saved setting cannot be used. */
export function counterStartFailedDialog(message: string, canLeave: boolean): CounterDialog {
  return {
    type: 'error',
    title: 'Cannot start as a counter',
    message: 'This counter cannot start.',
    detail: message,
    buttons: canLeave ? ['Quit', 'Leave counter mode'] : ['Quit'],
    defaultId: 0,
    cancelId: 0,
  };
}

/** The hub paired this counter but the setting could not be written (a full or read-only disk). */
export function counterNotSavedDialog(reason: string): CounterDialog {
  return {
    type: 'warning',
    title: 'Counter setting not saved',
    message: 'This counter is paired, but could not remember the hub for the next start.',
    detail: `${reason}\n\nIt sells normally now. Next time, start it with a new pairing link (--counter "<link>").`,
    buttons: ['OK'],
    defaultId: 0,
    cancelId: 0,
  };
}

/** What to do when the counter window's page did not load. */
export type LoadFailureAction = 'ignore' | 'retry' | 'give-up';

/**
 * Chromium's net error codes: -3 is a load replaced by another (nothing wrong); timeouts, a
 * changed network and the -100s (connection refused, reset, unreachable...) pass when the hub or
 * the Wi-Fi comes back; certificate errors (-200s) and the refusal of the pin (-2) do not.
 */
export function loadFailureAction(errorCode: number): LoadFailureAction {
  if (errorCode === -3) return 'ignore';
  if (errorCode === -7 || errorCode === -21) return 'retry';
  if (errorCode <= -100 && errorCode > -200) return 'retry';
  return 'give-up';
}

/** Waits before loading the hub's page again: quick at first (a restart takes seconds). */
export const LOAD_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000];

export function loadRetryDelay(attempt: number): number {
  const last = LOAD_RETRY_DELAYS_MS[LOAD_RETRY_DELAYS_MS.length - 1] ?? 15_000;
  return LOAD_RETRY_DELAYS_MS[Math.max(0, Math.floor(attempt))] ?? last;
}

/** The window's title while the hub cannot be reached, so the cashier sees why it is blank. */
export function unreachableTitle(hubOrigin: string, retryInMs: number): string {
  return `Transfer Till counter — cannot reach the hub at ${hubOrigin}; trying again in ${Math.ceil(retryInMs / 1000)} s`;
}

export const COUNTER_WINDOW_TITLE = 'Transfer Till counter';
