/**
 * The shop hub as end-to-end tests run it: `npm run web -- --lan` with its LAN listener on
 * 127.0.0.1 only (nothing in a test listens beyond loopback), and counters paired to it the way
 * a tablet's browser pairs: by opening the pairing link in a browser context of their own.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startJsonChild, type JsonChild } from './child-json';
import { hubRequest, type HubAnswer } from './hub-client';
import type { WebShellLine } from './web-till';

/** The start line of a hub (`--lan`): the browser shell's, plus the LAN listener's addresses. */
export interface HubShellLine extends WebShellLine {
  readonly lan_url: string;
  readonly pairing_url: string;
}

export interface HubShellOptions {
  /** The project's root (where scripts/web.ts is). */
  readonly root: string;
  readonly dataDir: string;
  /** The loopback listener's port: 0 (any) unless a restart must find the same address. */
  readonly port?: number;
  /** The LAN listener's port, as --lan-port: 0 (any) unless a restart must find the same address. */
  readonly lanPort?: number;
  /** A standalone `npm run sandbox`'s control_url; the embedded sandbox without one. */
  readonly sandboxUrl?: string;
}

function isHubLine(line: unknown): line is HubShellLine {
  if (typeof line !== 'object' || line === null) return false;
  const { lan_url: lanUrl, pairing_url: pairingUrl } = line as Record<string, unknown>;
  return typeof lanUrl === 'string' && typeof pairingUrl === 'string';
}

/** Starts a hub and waits for its start line; fails when the LAN listener did not start. */
export async function startHubShell(options: HubShellOptions): Promise<JsonChild<HubShellLine>> {
  const args = [
    '--port',
    String(options.port ?? 0),
    '--data-dir',
    options.dataDir,
    '--lan',
    '--lan-host',
    '127.0.0.1',
    '--lan-port',
    String(options.lanPort ?? 0),
    ...(options.sandboxUrl ? ['--sandbox-url', options.sandboxUrl] : []),
  ];
  // One at a time per file: the first start may build the renderer bundle.
  const web = await startJsonChild<unknown>('scripts/web.ts', args, {
    cwd: options.root,
    timeoutMs: 120_000,
  });
  const { first } = web;
  if (!isHubLine(first)) {
    await web.stop('SIGKILL');
    throw new Error(`the hub's LAN listener did not start: ${JSON.stringify(first)}`);
  }
  return { ...web, first };
}

/** A pairing link's one-time code and the certificate fingerprint it carries (64 hex digits). */
export function pairingLinkParts(pairingUrl: string): {
  readonly code: string;
  readonly fingerprint: string;
} {
  const hash = new URL(pairingUrl).hash;
  const code = /[#&]code=([A-Za-z0-9_-]+)/.exec(hash)?.[1];
  const fingerprint = /[#&]fp=([0-9a-f]{64})(?:&|$)/.exec(hash)?.[1];
  if (!code || !fingerprint) throw new Error(`not a pairing link: ${pairingUrl}`);
  return { code, fingerprint };
}

/** A browser context of its own: one counter device (its own storage, its own token). */
export function counterContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1000, height: 800 },
    // The hub's certificate is self-signed, so a browser warns once and a person accepts it after
    // comparing fingerprints: that warning is the README's subject, not these tests'. The pin
    // itself is checked where a client can pin (test/hub-lan.test.ts, the desktop counter).
    ignoreHTTPSErrors: true,
  });
}

/** Where the pairing page keeps a counter's token (the renderer's COUNTER_TOKEN_KEY). */
const COUNTER_TOKEN_KEY = 'till.counter-token';

/** The counter token a page keeps on its device, or null. */
export async function counterTokenOf(page: Page): Promise<string | null> {
  const value: unknown = await page.evaluate(
    `window.localStorage.getItem(${JSON.stringify(COUNTER_TOKEN_KEY)})`,
  );
  return typeof value === 'string' ? value : null;
}

/**
 * Opens a pairing link on a counter's page as a person would, waits for the sale screen the
 * pairing leads to, and returns the token the page kept.
 */
export async function pairCounterPage(
  page: Page,
  pairingUrl: string,
  timeoutMs: number,
): Promise<string> {
  await page.goto(pairingUrl);
  await page.getByRole('textbox', { name: /Amount/ }).waitFor({ timeout: timeoutMs });
  const token = await counterTokenOf(page);
  if (!token) throw new Error(`the page at ${pairingUrl} shows the sale screen but kept no token`);
  return token;
}

/**
 * One channel call on the hub's LAN listener, as a counter's page makes it (its token, or any
 * other), over a TLS connection pinned to the fingerprint of the hub's pairing link.
 */
export function callOnLan(
  hub: HubShellLine,
  token: string,
  channel: string,
  input: unknown = {},
): Promise<HubAnswer> {
  return hubRequest(new URL(`/api/call/${channel}`, hub.lan_url).href, {
    fingerprint: pairingLinkParts(hub.pairing_url).fingerprint,
    headers: { authorization: `Bearer ${token}` },
    body: input,
  });
}

/** The code of a refused answer (`{ ok: false, error: { code } }`), or null. */
export function refusalCode(answer: HubAnswer): string | null {
  const body = answer.json as { ok?: unknown; error?: { code?: unknown } } | undefined;
  return body?.ok === false && typeof body.error?.code === 'string' ? body.error.code : null;
}
