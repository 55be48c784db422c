import { z } from 'zod';
import { isHttpUrl, parseNairaAmount } from './create-account-request';
import type { CallbackDispatcher } from './callback-dispatcher';
import { SandboxError } from './errors';
import { faultPatchSchema, type FaultInjector } from './faults';
import { json, readJsonBody } from './http-io';
import { parsePersonalityPatch, type PersonalityStore } from './personality';
import type { Route } from './router';
import type { SandboxDb } from './sandbox-db';
import { MAX_PENDING_MS, type SandboxEngine } from './sandbox-engine';
import type { ServedFaults } from './served-faults';
import {
  allTransactions,
  listAccounts,
  listAttempts,
  listDispatches,
  transactionBySession,
  transactionsOfAccount,
  type AccountRow,
} from './sandbox-state';
import {
  controlAccountView,
  controlDispatchView,
  controlTransactionView,
  type SandboxStartLine,
} from './provider-answers';

/** Most copies one re-send request may ask for: enough for any duplicate test. */
export const MAX_RESEND_COPIES = 50;

export interface ControlApiDeps {
  readonly db: SandboxDb;
  readonly engine: SandboxEngine;
  readonly dispatcher: CallbackDispatcher;
  readonly faults: FaultInjector;
  readonly served: ServedFaults;
  readonly personality: PersonalityStore;
  readonly now: () => number;
  readonly getFallbackUrl: () => string | undefined;
  readonly setFallbackUrl: (url: string | undefined) => void;
  /** Addresses and keys, as the first line of `npm run sandbox` gives them (known once listening). */
  readonly startLine: () => SandboxStartLine;
}

const transferSchema = z.strictObject({
  account_number: z.string().min(1),
  amount: z.unknown(),
  pending_ms: z.number().int().min(0).max(MAX_PENDING_MS).optional(),
});

const resendSchema = z.strictObject({
  copies: z.number().int().min(1).max(MAX_RESEND_COPIES).optional(),
});

const configSchema = z.strictObject({
  fallback_callback_url: z.string().nullable().optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.');
  throw new SandboxError('VALIDATION', `${field}: ${issue?.message ?? 'invalid'}`);
}

/** The money side: accounts, transfers, the ledger and its callbacks. */
function ledgerRoutes(deps: ControlApiDeps): Route[] {
  const { db, engine, dispatcher } = deps;
  const accountView = (account: AccountRow) =>
    controlAccountView(
      account,
      deps.now(),
      transactionsOfAccount(db, account.accountNumber).some((tx) => tx.status === 'success'),
    );
  return [
    {
      // A till started with --sandbox-url reads the keys here, so it needs only the control URL.
      method: 'GET',
      pattern: /^\/info$/,
      handle: () => json(200, deps.startLine()),
    },
    {
      method: 'POST',
      pattern: /^\/transfers$/,
      handle: async (ctx) => {
        const body = parse(transferSchema, await readJsonBody(ctx.req));
        if (body.amount === undefined) {
          throw new SandboxError('VALIDATION', 'amount: is required');
        }
        const tx = engine.transfer({
          accountNumber: body.account_number,
          amountKobo: parseNairaAmount('amount', body.amount),
          pendingMs: body.pending_ms ?? 0,
        });
        return json(200, controlTransactionView(tx));
      },
    },
    {
      method: 'GET',
      pattern: /^\/accounts$/,
      handle: () => {
        engine.settleDue();
        return json(200, { accounts: listAccounts(db).map(accountView) });
      },
    },
    {
      method: 'POST',
      pattern: /^\/accounts\/(?<accountNumber>[^/]+)\/expire$/,
      handle: (ctx) => json(200, accountView(engine.expire(ctx.params.accountNumber ?? ''))),
    },
    {
      method: 'POST',
      pattern: /^\/accounts\/(?<accountNumber>[^/]+)\/cancel$/,
      handle: (ctx) => json(200, accountView(engine.cancel(ctx.params.accountNumber ?? ''))),
    },
    {
      method: 'GET',
      pattern: /^\/ledger$/,
      handle: () => {
        engine.settleDue();
        return json(200, { transactions: allTransactions(db).map(controlTransactionView) });
      },
    },
    {
      method: 'POST',
      pattern: /^\/transactions\/(?<sessionId>[^/]+)\/callbacks$/,
      handle: async (ctx) => {
        const body = parse(resendSchema, await readJsonBody(ctx.req, {}));
        engine.settleDue();
        const sessionId = ctx.params.sessionId ?? '';
        const tx = transactionBySession(db, sessionId);
        if (tx === undefined)
          throw new SandboxError('NOT_FOUND', 'session_id: no such transaction');
        if (tx.status !== 'success') {
          throw new SandboxError(
            'CONFLICT',
            `session_id: the transaction is ${tx.status}; only successful payments have callbacks`,
          );
        }
        const copies = body.copies ?? 1;
        const dispatchIds = dispatcher.resend(sessionId, copies);
        return json(202, { session_id: sessionId, copies, dispatch_ids: dispatchIds });
      },
    },
    {
      method: 'GET',
      pattern: /^\/callbacks$/,
      handle: () => {
        const attempts = listAttempts(db);
        const callbacks = listDispatches(db).map((dispatch) =>
          controlDispatchView(
            dispatch,
            transactionBySession(db, dispatch.sessionId),
            attempts.filter((a) => a.dispatchId === dispatch.id),
          ),
        );
        return json(200, { callbacks });
      },
    },
  ];
}

/** The sandbox's switches: faults, personality and the fallback callback address. */
function switchRoutes(deps: ControlApiDeps): Route[] {
  const { faults, served, personality } = deps;
  const faultsView = () => ({ ...faults.current, served: served.counts });
  const configView = () => ({ fallback_callback_url: deps.getFallbackUrl() ?? null });
  return [
    {
      method: 'GET',
      pattern: /^\/faults$/,
      handle: () => json(200, faultsView()),
    },
    {
      method: 'POST',
      pattern: /^\/faults$/,
      handle: async (ctx) => {
        faults.apply(parse(faultPatchSchema, await readJsonBody(ctx.req)));
        return json(200, faultsView());
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/faults$/,
      handle: () => {
        // The settings only: what was served stays until DELETE /faults/served.
        faults.clear();
        return json(200, faultsView());
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/faults\/served$/,
      handle: () => {
        served.reset();
        return json(200, faultsView());
      },
    },
    {
      method: 'GET',
      pattern: /^\/personality$/,
      handle: () => json(200, personality.current),
    },
    {
      method: 'POST',
      pattern: /^\/personality$/,
      handle: async (ctx) =>
        json(200, personality.apply(parsePersonalityPatch(await readJsonBody(ctx.req)))),
    },
    {
      method: 'DELETE',
      pattern: /^\/personality$/,
      handle: () => json(200, personality.reset()),
    },
    {
      method: 'GET',
      pattern: /^\/config$/,
      handle: () => json(200, configView()),
    },
    {
      method: 'POST',
      pattern: /^\/config$/,
      handle: async (ctx) => {
        const body = parse(configSchema, await readJsonBody(ctx.req));
        const url = body.fallback_callback_url;
        if (typeof url === 'string' && !isHttpUrl(url)) {
          throw new SandboxError(
            'VALIDATION',
            'fallback_callback_url: must be an absolute http(s) URL or null',
          );
        }
        if (url !== undefined) deps.setFallbackUrl(url ?? undefined);
        return json(200, configView());
      },
    },
  ];
}

/**
 * The customer's side of the sandbox: make transfers, steer accounts, inspect, inject faults,
 * switch personalities.
 */
export function controlRoutes(deps: ControlApiDeps): readonly Route[] {
  return [...ledgerRoutes(deps), ...switchRoutes(deps)];
}
