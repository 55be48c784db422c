/**
 * Helpers for the provider contract tests: the real sandbox on port 0, the real client built from
 * the addresses the sandbox reports, a recording fetch for the client (to count and, where a test
 * says so, alter requests), the control API over HTTP, and a local callback receiver.
 */
import { z } from 'zod';
import { createProviderClient, type ProviderClient } from '#main/provider/client';
import { sandboxProfile, type ProviderClientConfig } from '#main/provider/client-config';
import {
  startSandboxProvider,
  type Personality,
  type SandboxProvider,
  type SandboxProviderOptions,
} from '#main/sandbox';

// The sandbox's own test clock: 2025-01-15 09:00:00 in Lagos, whole seconds, so provider dates
// round-trip exactly.
import { ManualScheduler } from './clock';
import type { callbackPayloadSchema } from './sandbox-world';
import {
  SANDBOX_T0,
  controlAccountSchema,
  controlErrorSchema,
  controlTransactionSchema,
  personalitySchema,
  startReceiver,
  type Receiver,
} from './sandbox-world';

export {
  SANDBOX_T0,
  callbackPayloadSchema,
  controlTransactionSchema,
  startReceiver,
  unreachableUrl,
  waitFor,
  type ReceivedCallback,
  type Receiver,
} from './sandbox-world';

// ---- recording fetch ----

export interface SentRequest {
  readonly method: string;
  /** Path and query, e.g. `/api/virtual/status?reference=x`. */
  readonly path: string;
  readonly headers: Headers;
  readonly body: string | undefined;
}

export interface FetchHooks {
  /** Rewrites the JSON body before it is sent (a test playing a broken client or proxy). */
  readonly mapBody?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Header names removed before sending. */
  readonly dropHeaders?: readonly string[];
  /** Rewrites a JSON answer before the client sees it. */
  readonly mapJson?: (json: unknown) => unknown;
}

export interface RecordingFetch {
  readonly fetch: typeof fetch;
  readonly sent: SentRequest[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fetch for the client that records what it sends (after any rewrite) and passes it on. */
export function recordingFetch(hooks: FetchHooks = {}): RecordingFetch {
  const sent: SentRequest[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    for (const name of hooks.dropHeaders ?? []) headers.delete(name);
    let body = typeof init?.body === 'string' ? init.body : undefined;
    if (body !== undefined && hooks.mapBody) {
      const parsed: unknown = JSON.parse(body);
      if (isRecord(parsed)) body = JSON.stringify(hooks.mapBody(parsed));
    }
    sent.push({ method: init?.method ?? 'GET', path: url.pathname + url.search, headers, body });
    const response = await fetch(url, {
      ...init,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    if (!hooks.mapJson) return response;
    const json: unknown = await response.json();
    return new Response(JSON.stringify(hooks.mapJson(json)), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: wrapped, sent };
}

// ---- callback receiver ----

// ---- control API (CONTRACTS.md), over HTTP ----

export type ControlTransaction = z.infer<typeof controlTransactionSchema>;

export type ControlAccount = z.infer<typeof controlAccountSchema>;

export type CallbackBody = z.infer<typeof callbackPayloadSchema>;

const dispatchSchema = z.object({
  id: z.number(),
  session_id: z.string(),
  cause: z.enum(['payment', 'duplicate', 'resend']),
  state: z.enum(['pending', 'delivered', 'failed', 'dropped']),
  attempts: z.array(
    z.object({
      attempt: z.number(),
      target: z.enum(['primary', 'fallback']),
      url: z.string(),
      http_status: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type Dispatch = z.infer<typeof dispatchSchema>;

export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface ControlApi {
  call(method: string, path: string, body?: unknown): Promise<ControlAnswer>;
  /** A customer's transfer; throws unless the sandbox took it. */
  transfer(
    accountNumber: string,
    amountNaira: number,
    pendingMs?: number,
  ): Promise<ControlTransaction>;
  /** A transfer the sandbox is expected to refuse: its HTTP status and error code. */
  refusedTransfer(
    accountNumber: string,
    amountNaira: number,
  ): Promise<{ readonly status: number; readonly code: string }>;
  expire(accountNumber: string): Promise<ControlAccount>;
  accounts(): Promise<readonly ControlAccount[]>;
  ledger(): Promise<readonly ControlTransaction[]>;
  callbacks(): Promise<readonly Dispatch[]>;
  resend(sessionId: string, copies: number): Promise<void>;
  faults(patch: Record<string, number>): Promise<void>;
  clearFaults(): Promise<void>;
  /** What the sandbox served, by kind (GET /faults `served`). */
  served(): Promise<Readonly<Record<string, number>>>;
  /** Switches readings (POST /personality); throws unless the sandbox took them. */
  personality(patch: Partial<Personality>): Promise<Personality>;
  setFallbackUrl(url: string | null): Promise<void>;
}

export function controlApi(controlUrl: string): ControlApi {
  const call = async (method: string, path: string, body?: unknown): Promise<ControlAnswer> => {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  const ok = async <T>(
    schema: z.ZodType<T>,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> => {
    const answer = await call(method, path, body);
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(`control ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return schema.parse(answer.body);
  };
  const transferBody = (accountNumber: string, amount: number, pendingMs?: number) => ({
    account_number: accountNumber,
    amount,
    ...(pendingMs === undefined ? {} : { pending_ms: pendingMs }),
  });
  return {
    call,
    transfer: (accountNumber, amount, pendingMs) =>
      ok(
        controlTransactionSchema,
        'POST',
        '/transfers',
        transferBody(accountNumber, amount, pendingMs),
      ),
    async refusedTransfer(accountNumber, amount) {
      const answer = await call('POST', '/transfers', transferBody(accountNumber, amount));
      const body = controlErrorSchema.safeParse(answer.body);
      return { status: answer.status, code: body.success ? body.data.code : 'no error body' };
    },
    expire: (accountNumber) =>
      ok(controlAccountSchema, 'POST', `/accounts/${encodeURIComponent(accountNumber)}/expire`),
    accounts: async () =>
      (await ok(z.object({ accounts: z.array(controlAccountSchema) }), 'GET', '/accounts'))
        .accounts,
    ledger: async () =>
      (await ok(z.object({ transactions: z.array(controlTransactionSchema) }), 'GET', '/ledger'))
        .transactions,
    callbacks: async () =>
      (await ok(z.object({ callbacks: z.array(dispatchSchema) }), 'GET', '/callbacks')).callbacks,
    async resend(sessionId, copies) {
      await ok(z.unknown(), 'POST', `/transactions/${sessionId}/callbacks`, { copies });
    },
    async faults(patch) {
      await ok(z.unknown(), 'POST', '/faults', patch);
    },
    async clearFaults() {
      await ok(z.unknown(), 'DELETE', '/faults');
    },
    served: async () =>
      (await ok(z.object({ served: z.record(z.string(), z.number()) }), 'GET', '/faults')).served,
    personality: (patch) => ok(personalitySchema, 'POST', '/personality', patch),
    async setFallbackUrl(url) {
      await ok(z.unknown(), 'POST', '/config', { fallback_callback_url: url });
    },
  };
}

// ---- the whole bench ----

export interface ContractEnv {
  readonly sandbox: SandboxProvider;
  readonly clock: ManualScheduler;
  readonly control: ControlApi;
  /** Where accounts send callbacks unless a test says otherwise. */
  readonly receiver: Receiver;
  /** Delays the clients asked to sleep between read retries (the sleep itself is instant). */
  readonly sleeps: number[];
  /** Unexpected errors the sandbox reported (bugs); a test ends with none. */
  readonly sandboxErrors: unknown[];
  /** A real client for this sandbox, built from the addresses it reports. */
  client(overrides?: Partial<ProviderClientConfig>): ProviderClient;
  /** A client whose requests are recorded, with optional rewrites. */
  recordedClient(
    hooks?: FetchHooks,
    overrides?: Partial<ProviderClientConfig>,
  ): { readonly client: ProviderClient; readonly sent: SentRequest[] };
  close(): Promise<void>;
}

/** Fast retry settings: three attempts, near-zero delays, and an injected sleep. */
export const FAST_READ_RETRY = { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 } as const;

export async function startContractEnv(options: SandboxProviderOptions = {}): Promise<ContractEnv> {
  const clock = new ManualScheduler(SANDBOX_T0);
  const sandboxErrors: unknown[] = [];
  const receiver = await startReceiver();
  let sandbox: SandboxProvider;
  try {
    sandbox = await startSandboxProvider({
      port: 0,
      now: clock.now,
      callbackRetryDelaysMs: [20, 40],
      callbackTimeoutMs: 2000,
      seed: 7,
      onError: (error) => sandboxErrors.push(error),
      ...options,
    });
  } catch (error) {
    await receiver.close();
    throw error;
  }
  const sleeps: number[] = [];
  const client = (overrides: Partial<ProviderClientConfig> = {}): ProviderClient => {
    const { baseUrl, payoutBaseUrl } = sandboxProfile(sandbox);
    return createProviderClient({
      baseUrl,
      payoutBaseUrl,
      secretKey: sandbox.secretKey,
      accessToken: sandbox.accessToken,
      timeoutMs: 5000,
      readRetry: FAST_READ_RETRY,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      ...overrides,
    });
  };
  return {
    sandbox,
    clock,
    control: controlApi(sandbox.controlUrl),
    receiver,
    sleeps,
    sandboxErrors,
    client,
    recordedClient(hooks = {}, overrides = {}) {
      const recording = recordingFetch(hooks);
      return { client: client({ fetch: recording.fetch, ...overrides }), sent: recording.sent };
    },
    async close() {
      await sandbox.close();
      await receiver.close();
    },
  };
}

let counter = 0;

/** A reference unique within the run, in the client's allowed alphabet. */
export function uniqueReference(prefix = 'TT'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}
