/**
 * A standalone `npm run sandbox`, used by the SANDBOX profile instead of the embedded one so
 * that several tills train against one provider. Given only its control URL, the till reads
 * the addresses and keys from `GET {control_url}/info` (the same object as the sandbox's first
 * line of output), so nobody copies keys by hand.
 */
import { z } from 'zod';
import { AppError } from '#shared/errors';

/** Everything the till needs to talk to a sandbox provider. */
export interface SandboxConnection {
  readonly baseUrl: string;
  readonly payoutBaseUrl: string;
  readonly controlUrl: string;
  readonly secretKey: string;
  readonly accessToken: string;
  readonly payoutAccountId: string;
}

export type StandaloneSandboxErrorCode =
  /** Not an absolute http(s) address without credentials, query or fragment. */
  | 'SANDBOX_URL_INVALID'
  /** Nothing answered (refused, timed out, DNS). */
  | 'SANDBOX_UNREACHABLE'
  /** Something answered, but not a sandbox's control API. */
  | 'SANDBOX_NOT_A_SANDBOX';

export class StandaloneSandboxError extends AppError<StandaloneSandboxErrorCode> {
  declare readonly field: 'profiles.sandbox.sandboxUrl';
  constructor(code: StandaloneSandboxErrorCode, message: string) {
    // The setting to fix, so that Settings can put the message beside it.
    super(code, message, { field: 'profiles.sandbox.sandboxUrl' });
    this.name = 'StandaloneSandboxError';
  }
}

/** How long a till waits for the sandbox's /info before saying it cannot reach it. */
export const SANDBOX_INFO_TIMEOUT_MS = 5_000;

const WHERE_IT_COMES_FROM =
  'Start one with `npm run sandbox` and give the control_url from its first line (it ends in /control).';

const httpUrl = z.string().refine((value) => {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}, 'an absolute http(s) URL');

const infoSchema = z.object({
  base_url: httpUrl,
  payout_base_url: httpUrl,
  control_url: httpUrl,
  secret_key: z.string().min(1),
  access_token: z.string().min(1),
  payout_account_id: z.string().regex(/^\d+$/),
});

/** The control URL as the till keeps it (trimmed, no trailing slash); throws when unusable. */
export function normaliseSandboxUrl(raw: string): string {
  const text = raw.trim();
  const url = URL.canParse(text) ? new URL(text) : null;
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new StandaloneSandboxError(
      'SANDBOX_URL_INVALID',
      `The shared sandbox address ${JSON.stringify(raw)} is not usable: it must be a full http:// address such as http://127.0.0.1:4010/control. ${WHERE_IT_COMES_FROM}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The sandbox names its own addresses by 127.0.0.1; a till that reaches it another way (by
 * `localhost`, or through a forwarded port) keeps using the origin it was given.
 */
function rebase(address: string, from: string, to: string): string {
  const url = new URL(address);
  return url.origin === from ? `${to}${url.pathname.replace(/\/+$/, '')}` : address;
}

function cause(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const inner =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof inner?.code === 'string')
    return inner.code === 'ECONNREFUSED' ? 'nothing is listening there' : inner.code;
  return error instanceof Error ? error.message : String(error);
}

/** Reads a standalone sandbox's addresses and keys from its control API. */
export async function readStandaloneSandbox(
  sandboxUrl: string,
  options: { readonly timeoutMs?: number; readonly fetch?: typeof fetch } = {},
): Promise<SandboxConnection> {
  const controlUrl = normaliseSandboxUrl(sandboxUrl);
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await doFetch(`${controlUrl}/info`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? SANDBOX_INFO_TIMEOUT_MS),
    });
  } catch (error) {
    throw new StandaloneSandboxError(
      'SANDBOX_UNREACHABLE',
      `Cannot reach the shared sandbox at ${controlUrl} (${cause(error)}). ${WHERE_IT_COMES_FROM}`,
    );
  }
  const notASandbox = (what: string) =>
    new StandaloneSandboxError(
      'SANDBOX_NOT_A_SANDBOX',
      `${controlUrl} is not a sandbox control API: GET ${controlUrl}/info ${what}. ${WHERE_IT_COMES_FROM}`,
    );
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw notASandbox(`broke off (${cause(error)})`);
  }
  if (!response.ok) throw notASandbox(`answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notASandbox('answered something other than JSON');
  }
  const parsed = infoSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw notASandbox(`answered without a usable ${issue?.path.join('.') || 'body'}`);
  }
  const info = parsed.data;
  const from = new URL(info.control_url).origin;
  const to = new URL(controlUrl).origin;
  return {
    baseUrl: rebase(info.base_url, from, to),
    payoutBaseUrl: rebase(info.payout_base_url, from, to),
    controlUrl,
    secretKey: info.secret_key,
    accessToken: info.access_token,
    payoutAccountId: info.payout_account_id,
  };
}
