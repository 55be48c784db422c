/**
 * The hub's pairing link as the desktop app in counter mode reads it:
 * `https://<lan address>:<port>/#/pair&code=<code>&fp=<sha256 hex>`. The link is the only thing
 * the person at the counter brings, so it decides which machine is trusted: it must name a LAN
 * address (an IP literal or localhost, never a DNS name that someone else could answer for) over
 * https, and carry the certificate's fingerprint to pin.
 */
import { ipFamily } from '#shared/settings-schema';
import { AppError, type AppErrorCode } from '#shared/errors';

export type PairingLinkErrorCode = Extract<AppErrorCode, `PAIRING_LINK_${string}`>;

export class PairingLinkError extends AppError<PairingLinkErrorCode> {
  constructor(code: PairingLinkErrorCode, message: string) {
    super(code, message);
    this.name = 'PairingLinkError';
  }
}

export interface PairingLink {
  /** `https://<address>:<port>`: the only origin the counter window may show. */
  readonly hubOrigin: string;
  /** The one-time pairing code (the hub's page sends it; main only checks its shape). */
  readonly code: string;
  /** SHA-256 of the hub's certificate: 64 lower-case hex digits. */
  readonly fingerprint: string;
  /** The link itself, as the URL parser wrote it out (the counter window's first page). */
  readonly href: string;
}

const FINGERPRINT_HEX = /^[0-9a-f]{64}$/;
/** 128 random bits in base64url are 22 characters; leave room should the hub ever use more. */
const CODE_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const PAIR_ROUTE = '/pair';

/** A fingerprint written as the link or a settings file has it: 64 hex digits, any case. */
export function fingerprintHex(text: string): string | null {
  const hex = text.trim().toLowerCase();
  return FINGERPRINT_HEX.test(hex) ? hex : null;
}

/** The owner compares fingerprints by eye: "AB:CD:…", as the hub's Counters screen shows them. */
export function fingerprintPairs(hex: string): string {
  return (hex.toUpperCase().match(/../g) ?? []).join(':');
}

/** The host without the brackets of an IPv6 literal, in lower case. */
export function bareHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** A host a shop's LAN can reach without DNS: an IP literal or localhost. */
export function isLanHost(host: string): boolean {
  const bare = bareHost(host);
  return bare === 'localhost' || ipFamily(bare) !== 0;
}

function notHub(code: PairingLinkErrorCode, message: string): never {
  throw new PairingLinkError(code, message);
}

/**
 * The hub's origin from an address, held to the same rules as a pairing link: https, a LAN
 * host, no user name or password, nothing after the origin but "/". Throws PairingLinkError.
 */
export function hubOriginOf(url: URL): string {
  if (url.protocol !== 'https:') {
    notHub(
      'PAIRING_LINK_NOT_HTTPS',
      'The link must start with https:// (the hub encrypts the shop network traffic).',
    );
  }
  if (!isLanHost(url.hostname)) {
    notHub(
      'PAIRING_LINK_NOT_LAN_ADDRESS',
      `The link names "${url.hostname}", not the hub's network address (like 192.168.1.20).`,
    );
  }
  if (url.username || url.password || url.pathname !== '/' || url.search) {
    notHub(
      'PAIRING_LINK_NOT_PAIRING',
      "This is not the hub's address: copy the whole pairing link from the Counters screen.",
    );
  }
  return url.origin;
}

/**
 * Reads a pairing link the owner copied from the hub's Counters screen. Throws PairingLinkError
 * with a code and words for the person at the counter when it is not one.
 */
export function parsePairingLink(text: string): PairingLink {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return notHub('PAIRING_LINK_NOT_A_LINK', 'That is not a link. Copy the whole pairing link.');
  }
  const hubOrigin = hubOriginOf(url);
  // The fragment is "#/pair&code=…&fp=…": the route, then parameters joined by "&".
  const fragment = url.hash.startsWith('#') ? url.hash.slice(1) : url.hash;
  const [route, ...rest] = fragment.split('&');
  if (route !== PAIR_ROUTE) {
    return notHub(
      'PAIRING_LINK_NOT_PAIRING',
      'This is not a pairing link: ask the owner to add a counter on the Counters screen.',
    );
  }
  const params = new URLSearchParams(rest.join('&'));
  const code = params.get('code');
  if (!code || !CODE_SHAPE.test(code)) {
    return notHub('PAIRING_LINK_NO_CODE', 'The link has no pairing code: copy the whole link.');
  }
  const fingerprint = fingerprintHex(params.get('fp') ?? '');
  if (!fingerprint) {
    return notHub(
      'PAIRING_LINK_NO_FINGERPRINT',
      "The link does not carry the hub's certificate fingerprint, so this counter could not tell the hub from an impostor. Copy the whole link.",
    );
  }
  return { hubOrigin, code, fingerprint, href: url.href };
}
