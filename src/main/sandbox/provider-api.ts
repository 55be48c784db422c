import { timingSafeEqual } from 'node:crypto';
import { parseCreateAccountRequest } from './create-account-request';
import { invalidField, SandboxError } from './errors';
import { headerValue, json, readJsonBody, type Reply } from './http-io';
import type { Personality } from './personality';
import type { RequestContext, Route } from './router';
import type { SandboxDb } from './sandbox-db';
import type { SandboxEngine } from './sandbox-engine';
import { readBalances, type MerchantRow } from './sandbox-state';
import {
  createdAccountView,
  listingRowView,
  paymentStatusView,
  payoutAccountView,
} from './provider-answers';

/** Listing paging where the interface is silent: offset 0, 50 per page, at most 100. */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

export interface ProviderApiDeps {
  readonly db: SandboxDb;
  readonly engine: SandboxEngine;
  readonly merchant: () => MerchantRow;
  /** The lying-count fault: added to the listing's `count`. */
  readonly countSkew: () => number;
  readonly personality: () => Personality;
}

/**
 * The status answer under `failed_status`: today's 200 with the `failed` record, or the record
 * hidden behind a 404 (as if nothing came) or a 409 (as if still pending).
 */
function maskFailed(ctx: RequestContext, mode: Personality['failed_status']): void {
  if (mode === '200') return;
  ctx.served.add('failed_status_masked');
  if (mode === '404') {
    throw new SandboxError('NOT_FOUND', 'reference: no transaction found for this reference');
  }
  throw new SandboxError('PENDING', 'reference: the transaction is still pending');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Section 5: a missing key is a 400 on every virtual-account endpoint, an unknown one a 404. */
function requireSecretKey(ctx: RequestContext, merchant: MerchantRow): void {
  const given = headerValue(ctx.req, 'secretKey');
  if (given === undefined || given.trim() === '') {
    throw new SandboxError('MISSING_SECRET_KEY', 'secretKey: header is required');
  }
  if (!sameSecret(given, merchant.secretKey)) {
    throw new SandboxError(
      'UNKNOWN_SECRET_KEY',
      'secretKey: no settlement account is linked to this key',
    );
  }
}

function requireBearer(ctx: RequestContext, merchant: MerchantRow): void {
  const header = headerValue(ctx.req, 'authorization') ?? '';
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token === undefined || !sameSecret(token, merchant.accessToken)) {
    throw new SandboxError(
      'UNAUTHORIZED',
      'Authorization: a valid Bearer access token is required',
    );
  }
}

function pagingParam(url: URL, name: string, fallback: number, min: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw invalidField(name, 'must be a non-negative whole number');
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw invalidField(name, 'is too large');
  if (value < min) throw invalidField(name, `must be at least ${min}`);
  return value;
}

function success(data: unknown): Reply {
  return json(200, { status: 'success', data });
}

/** The provider's endpoints, mounted under /api (virtual accounts) and /payout. */
export function virtualAccountRoutes(deps: ProviderApiDeps): readonly Route[] {
  return [
    {
      method: 'POST',
      pattern: /^\/virtual\/new-account$/,
      handle: async (ctx) => {
        requireSecretKey(ctx, deps.merchant());
        const request = parseCreateAccountRequest(await readJsonBody(ctx.req));
        return success(createdAccountView(deps.engine.createAccount(request)));
      },
    },
    {
      method: 'GET',
      pattern: /^\/virtual\/status$/,
      handle: (ctx) => {
        requireSecretKey(ctx, deps.merchant());
        const reference = ctx.url.searchParams.get('reference');
        if (reference === null || reference.trim() === '') {
          throw invalidField('reference', 'query parameter is required');
        }
        const tx = deps.engine.paymentStatus(reference);
        if (tx.status === 'failed') maskFailed(ctx, deps.personality().failed_status);
        return success(paymentStatusView(tx));
      },
    },
    {
      method: 'GET',
      pattern: /^\/virtual\/transactions$/,
      handle: (ctx) => {
        requireSecretKey(ctx, deps.merchant());
        const offset = pagingParam(ctx.url, 'offset', 0, 0);
        // Larger pages are clamped rather than refused, as many real APIs do.
        const asked = Math.min(
          pagingParam(ctx.url, 'limit', DEFAULT_PAGE_LIMIT, 1),
          MAX_PAGE_LIMIT,
        );
        const personality = deps.personality();
        // page_cap: a provider that serves at most N rows a page whatever `limit` asks.
        const capped = personality.page_cap > 0 && personality.page_cap < asked;
        if (capped) ctx.served.add('page_capped');
        const limit = capped ? personality.page_cap : asked;
        const page = deps.engine.listTransactions(offset, limit, personality.listing_order);
        const skew = deps.countSkew();
        if (skew !== 0) ctx.served.add('count_skew');
        const rows = page.rows.map((tx) => listingRowView(tx, personality.bad_row_every));
        ctx.served.add('bad_rows', rows.filter((row) => !row.readable).length);
        return success({
          count: Math.max(0, page.count + skew),
          transactions: rows.map((row) => row.json),
        });
      },
    },
  ];
}

export function payoutRoutes(deps: ProviderApiDeps): readonly Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/request\/company\/get-user-account$/,
      handle: (ctx) => {
        const merchant = deps.merchant();
        requireBearer(ctx, merchant);
        const accountId = ctx.url.searchParams.get('accountId');
        if (accountId === null || accountId.trim() === '') {
          throw invalidField('accountId', 'query parameter is required');
        }
        if (accountId !== merchant.payoutAccountId) {
          throw new SandboxError('NOT_FOUND', 'accountId: no such payout account');
        }
        deps.engine.settleDue();
        return json(200, payoutAccountView(merchant, readBalances(deps.db)));
      },
    },
  ];
}
