/**
 * The sandbox world for tests: the sandbox on port 0 on the manual clock, its answers' shapes,
 * typed HTTP calls to it, and a callback receiver.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { PERSONALITY_CHOICES } from '#main/sandbox/personality';
import { SERVED_FAULT_KINDS, type ServedFaultKind } from '#main/sandbox/served-faults';
import {
  startSandboxProvider,
  type SandboxProvider,
  type SandboxProviderOptions,
} from '#main/sandbox/sandbox-provider';
import { ManualScheduler } from './clock';

/** The sandbox tests' clock start: 09:00 in Lagos, whole seconds, so provider dates round-trip. */
export const SANDBOX_T0 = Date.UTC(2025, 0, 15, 8, 0, 0);

export interface TestSandbox {
  readonly sandbox: SandboxProvider;
  readonly clock: ManualScheduler;
}

export async function startTestSandbox(
  options: SandboxProviderOptions = {},
  clock: ManualScheduler = new ManualScheduler(SANDBOX_T0),
): Promise<TestSandbox> {
  const sandbox = await startSandboxProvider({
    port: 0,
    now: clock.now,
    callbackRetryDelaysMs: [20, 40, 80],
    seed: 42,
    ...options,
  });
  return { sandbox, clock };
}

// ---- response shapes ----

export const errorBodySchema = z.strictObject({ status: z.literal('error'), message: z.string() });

export const controlErrorSchema = z.strictObject({
  status: z.literal('error'),
  code: z.string(),
  message: z.string(),
});

export const createdSchema = z.strictObject({
  status: z.literal('success'),
  data: z.strictObject({
    account_number: z.string().regex(/^\d{10}$/),
    account_name: z.string(),
    reference: z.string().min(1),
    Bank: z.string().min(1),
    external_reference: z.string(),
    status: z.literal('active'),
  }),
});

const providerDate = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
const sessionId = z.string().regex(/^\d{30}$/);

export const statusSchema = z.strictObject({
  status: z.literal('success'),
  data: z.strictObject({
    status: z.enum(['success', 'failed']),
    session_id: sessionId,
    reference: z.string(),
    amount: z.number(),
    date: providerDate,
  }),
});

export const listingSchema = z.strictObject({
  status: z.literal('success'),
  data: z.strictObject({
    count: z.number().int(),
    transactions: z.array(
      z.strictObject({
        amount: z.number(),
        status: z.enum(['success', 'failed', 'pending']),
        session_id: sessionId,
        external_reference: z.string(),
        date: providerDate,
      }),
    ),
  }),
});

const balanceSchema = z.strictObject({
  balanceType: z.string(),
  value: z.number().int(),
  currency: z.literal('NGN'),
  display: z.string(),
});

export const payoutSchema = z.strictObject({
  id: z.string(),
  iban: z.null(),
  currency: z.literal(566),
  userId: z.number().int(),
  ownerName: z.string(),
  name: z.string(),
  productId: z.string(),
  type: z.literal('CURRENT'),
  status: z.literal('OPENED'),
  balances: z.array(balanceSchema),
  externalData: z.strictObject({}),
});

export const controlTransactionSchema = z.object({
  session_id: sessionId,
  status: z.enum(['success', 'failed', 'pending']),
  reason: z.string().nullable(),
  amount: z.number(),
  amount_kobo: z.number().int(),
  external_reference: z.string(),
  account_number: z.string(),
  date: providerDate,
});

export const ledgerSchema = z.object({ transactions: z.array(controlTransactionSchema) });

export const controlAccountSchema = z.object({
  account_number: z.string(),
  account_name: z.string(),
  merchant_id: z.string(),
  external_reference: z.string(),
  created_at_ms: z.number(),
  type: z.enum(['nonstatic', 'static', 'static-flex']),
  amount: z.number().nullable(),
  status: z.enum(['active', 'expired', 'cancelled']),
  paid: z.boolean(),
  callback_url: z.string(),
  expires_at: providerDate.nullable(),
  expires_at_ms: z.number().nullable(),
});

export const accountsSchema = z.object({ accounts: z.array(controlAccountSchema) });

export const callbackPayloadSchema = z.strictObject({
  event: z.literal('payment.success'),
  reference: z.string(),
  external_reference: z.string(),
  account_number: z.string(),
  session_id: sessionId,
  amount: z.number(),
  status: z.literal('success'),
  date: providerDate,
  type: z.enum(['nonstatic', 'static', 'static-flex']),
});

/** A failure notice (personality failed_callbacks "sent"): the same fields, status failed. */
export const failureNoticeSchema = callbackPayloadSchema.extend({
  event: z.literal('payment.failed'),
  status: z.literal('failed'),
});

export const callbacksSchema = z.object({
  callbacks: z.array(
    z.object({
      id: z.number().int(),
      session_id: z.string(),
      cause: z.enum(['payment', 'duplicate', 'resend']),
      state: z.enum(['pending', 'delivered', 'failed', 'dropped']),
      note: z.string().nullable(),
      due_at_ms: z.number().nullable(),
      payload: callbackPayloadSchema.or(failureNoticeSchema).nullable(),
      attempts: z.array(
        z.object({
          attempt: z.number().int(),
          target: z.enum(['primary', 'fallback']),
          url: z.string(),
          http_status: z.number().int().nullable(),
          error: z.string().nullable(),
          at_ms: z.number(),
        }),
      ),
    }),
  ),
});

export const faultsSchema = z.strictObject({
  latency_ms: z.number(),
  error_rate: z.number(),
  drop_callbacks: z.number(),
  duplicate_callbacks: z.number(),
  malformed_rate: z.number(),
  count_skew: z.number(),
  side_effect_error_rate: z.number(),
  timeout_rate: z.number(),
  timeout_hold_ms: z.number(),
  unreachable_until_ms: z.number().nullable(),
  seed: z.number(),
  served: z.strictObject(
    Object.fromEntries(SERVED_FAULT_KINDS.map((kind) => [kind, z.number().int().min(0)])) as Record<
      ServedFaultKind,
      z.ZodNumber
    >,
  ),
});

export const personalitySchema = z.strictObject({
  failed_status: z.enum(PERSONALITY_CHOICES.failed_status),
  callbacks: z.enum(PERSONALITY_CHOICES.callbacks),
  listing_order: z.enum(PERSONALITY_CHOICES.listing_order),
  static_mismatch: z.enum(PERSONALITY_CHOICES.static_mismatch),
  expired_payments: z.enum(PERSONALITY_CHOICES.expired_payments),
  failed_callbacks: z.enum(PERSONALITY_CHOICES.failed_callbacks),
  callback_format: z.enum(PERSONALITY_CHOICES.callback_format),
  repeat_payments: z.enum(PERSONALITY_CHOICES.repeat_payments),
  bad_row_every: z.number().int().min(0),
  callback_delay_ms: z.number().int().min(0),
  page_cap: z.number().int().min(0),
});

export async function setPersonality(sandbox: SandboxProvider, patch: Record<string, unknown>) {
  const result = await http(`${sandbox.controlUrl}/personality`, { body: patch });
  if (result.status !== 200) {
    throw new Error(`personality refused: ${result.status} ${result.text}`);
  }
  return personalitySchema.parse(result.body);
}

export async function servedFaults(sandbox: SandboxProvider) {
  return faultsSchema.parse((await http(`${sandbox.controlUrl}/faults`)).body).served;
}

// ---- HTTP ----

export interface HttpResult {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
}

export async function http(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpResult> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = undefined;
  }
  return { status: response.status, text, body };
}

/** Loose on purpose: tests send wrong types to see them refused. */
export type CreateBody = Record<string, unknown>;

let referenceCounter = 0;

export function uniqueReference(): string {
  referenceCounter += 1;
  return `sale-${process.pid}-${referenceCounter}`;
}

export function nonstaticBody(overrides: CreateBody = {}): CreateBody {
  return {
    reference: uniqueReference(),
    account_name: 'Mama Put Stores',
    merchant_id: 'MERCHANT-1',
    amount: 2505,
    expiers_in: 30,
    type: 'nonstatic',
    callback_url: 'http://127.0.0.1:9/unused',
    merchant: 'others',
    ...overrides,
  };
}

export function createRaw(sandbox: SandboxProvider, body: unknown, secretKey = sandbox.secretKey) {
  return http(`${sandbox.baseUrl}/virtual/new-account`, {
    headers: { secretKey },
    body,
  });
}

export async function createAccount(sandbox: SandboxProvider, body: CreateBody = nonstaticBody()) {
  const result = await createRaw(sandbox, body);
  if (result.status !== 200) throw new Error(`create failed: ${result.status} ${result.text}`);
  return createdSchema.parse(result.body).data;
}

export function transferRaw(
  sandbox: SandboxProvider,
  accountNumber: string,
  amount: number,
  pendingMs?: number,
) {
  return http(`${sandbox.controlUrl}/transfers`, {
    body: {
      account_number: accountNumber,
      amount,
      ...(pendingMs === undefined ? {} : { pending_ms: pendingMs }),
    },
  });
}

export async function transfer(
  sandbox: SandboxProvider,
  accountNumber: string,
  amount: number,
  pendingMs?: number,
) {
  const result = await transferRaw(sandbox, accountNumber, amount, pendingMs);
  if (result.status !== 200) throw new Error(`transfer failed: ${result.status} ${result.text}`);
  return controlTransactionSchema.parse(result.body);
}

export function statusOf(sandbox: SandboxProvider, reference: string) {
  return http(`${sandbox.baseUrl}/virtual/status?reference=${encodeURIComponent(reference)}`, {
    headers: { secretKey: sandbox.secretKey },
  });
}

export function listing(sandbox: SandboxProvider, query = '') {
  return http(`${sandbox.baseUrl}/virtual/transactions${query}`, {
    headers: { secretKey: sandbox.secretKey },
  });
}

export async function payout(sandbox: SandboxProvider) {
  const result = await http(
    `${sandbox.payoutBaseUrl}/request/company/get-user-account?accountId=${sandbox.payoutAccountId}`,
    { headers: { Authorization: `Bearer ${sandbox.accessToken}` } },
  );
  if (result.status !== 200) throw new Error(`payout failed: ${result.status} ${result.text}`);
  return payoutSchema.parse(result.body);
}

export function balanceValue(
  account: z.infer<typeof payoutSchema>,
  type: string,
): number | undefined {
  return account.balances.find((b) => b.balanceType === type)?.value;
}

export async function callbackLog(sandbox: SandboxProvider) {
  return callbacksSchema.parse((await http(`${sandbox.controlUrl}/callbacks`)).body).callbacks;
}

export async function ledger(sandbox: SandboxProvider) {
  return ledgerSchema.parse((await http(`${sandbox.controlUrl}/ledger`)).body).transactions;
}

export async function accounts(sandbox: SandboxProvider) {
  return accountsSchema.parse((await http(`${sandbox.controlUrl}/accounts`)).body).accounts;
}

// ---- callback receiver ----

export interface ReceivedCallback {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  readonly at: number;
}

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedCallback[];
  close(): Promise<void>;
}

/** A local callback endpoint; answers the given statuses in turn, then 200. */
export async function startReceiver(statuses: readonly number[] = []): Promise<Receiver> {
  const queue = [...statuses];
  const received: ReceivedCallback[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text; // a form-encoded body (callback_format "form") stays text
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // kept as text
      }
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        headers: req.headers,
        at: Date.now(),
      });
      res.writeHead(queue.shift() ?? 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL nothing listens on: a port taken and released, so connections are refused. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhook`;
}

/**
 * Polls until `probe` gives a value (anything but undefined or false) and returns it; a boolean
 * probe waits until it is true. Throws after `timeoutMs`, naming `what`.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 3000,
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as Exclude<T, false>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
