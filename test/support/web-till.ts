import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** The browser shell's first line of output (`npm run web`), on the sandbox provider. */
export interface WebShellLine {
  readonly url: string;
  readonly display_url: string;
  readonly control_url: string;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/**
 * A customer's transfer through the sandbox's control API (amount in Naira). Returns the
 * transaction the sandbox recorded.
 */
export async function sandboxTransfer(
  controlUrl: string,
  accountNumber: string,
  amountNaira: number,
  /** The customer's bank holds it this long before it succeeds (CONTRACTS.md `pending_ms`). */
  pendingMs?: number,
): Promise<unknown> {
  return postJson(`${controlUrl}/transfers`, {
    account_number: accountNumber,
    amount: amountNaira,
    ...(pendingMs === undefined ? {} : { pending_ms: pendingMs }),
  });
}

/** The token the browser shell put in its URL's fragment (`#token=…`). */
export function tokenOf(shellUrl: string): string {
  const token = /(?:^|[#&])token=([A-Za-z0-9_-]+)/.exec(new URL(shellUrl).hash)?.[1];
  if (!token) throw new Error(`no token in ${shellUrl}`);
  return token;
}

/**
 * --dev-clock: moves the till's clock and the embedded sandbox's clock forward by `ms`; the
 * answer comes once the core has settled (timers that fell due have run).
 */
export async function advanceTillClock(shellUrl: string, ms: number): Promise<void> {
  const url = new URL('/api/dev/advance-clock', shellUrl);
  await postJson(url.href, { ms }, { authorization: `Bearer ${tokenOf(shellUrl)}` });
}

/** Decodes a QR code given as a `data:image/png;base64,…` URL; null when none is found. */
export function decodeQrDataUrl(dataUrl: string): string | null {
  const match = /^data:image\/png;base64,(.+)$/.exec(dataUrl);
  if (!match?.[1]) throw new Error(`not a PNG data: URL: ${dataUrl.slice(0, 40)}…`);
  const png = PNG.sync.read(Buffer.from(match[1], 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return code?.data ?? null;
}

/** Whole seconds in a countdown shown as "mm:ss"; null for anything else ("Expired"). */
export function countdownSeconds(text: string): number | null {
  const match = /^(\d{2,}):(\d{2})$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Switches the sandbox's reading of what the interface leaves unshown (CONTRACTS.md keys). */
export async function setSandboxPersonality(
  controlUrl: string,
  patch: Readonly<Record<string, string | number>>,
): Promise<unknown> {
  return postJson(`${controlUrl}/personality`, patch);
}

/** Sets the sandbox's faults through its control API (`POST /faults`, as CONTRACTS.md names). */
export async function setSandboxFaults(
  controlUrl: string,
  faults: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  return postJson(`${controlUrl}/faults`, faults);
}

/**
 * The till's standing account for outages, once its first online start has made it
 * (`getOutageAccount` over the HTTP bridge); fails after `timeoutMs` with none.
 */
export async function waitForOutageAccount(
  tillUrl: string,
  timeoutMs: number,
): Promise<{ accountNumber: string; bank: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await callTill(tillUrl, 'getOutageAccount', {});
    if (answer.ok && answer.value) return answer.value as { accountNumber: string; bank: string };
    if (Date.now() > deadline) throw new Error(`no outage account after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** What the sandbox actually served of each fault and reading (`GET /faults` → `served`). */
export async function sandboxServed(controlUrl: string): Promise<Record<string, number>> {
  const response = await fetch(`${controlUrl}/faults`);
  if (!response.ok) throw new Error(`GET ${controlUrl}/faults answered ${response.status}`);
  const body = (await response.json()) as { served?: Record<string, number> };
  if (!body.served) throw new Error('the sandbox reports no served fault counts');
  return body.served;
}

/** A bridge call's answer over HTTP, as the page receives it. */
export type TillCallResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string; readonly field?: string };
    };

/** One channel call over the browser shell's HTTP bridge, with the till's token. */
export async function callTill(
  shellUrl: string,
  channel: string,
  input: unknown,
): Promise<TillCallResult> {
  const response = await fetch(new URL(`/api/call/${channel}`, shellUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenOf(shellUrl)}` },
    body: JSON.stringify(input),
  });
  return (await response.json()) as TillCallResult;
}

/** The first line of `npm run sandbox` (CONTRACTS.md). */
export interface SandboxLine {
  readonly base_url: string;
  readonly payout_base_url: string;
  readonly secret_key: string;
  readonly access_token: string;
  readonly payout_account_id: string;
  readonly control_url: string;
}
