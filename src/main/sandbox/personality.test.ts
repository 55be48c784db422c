import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProviderTimestamp } from '#shared/provider-time';
import { DEFAULT_PERSONALITY, parsePersonalityFlag, parsePersonalityPatch } from './personality';
import { SandboxConfigError, startSandboxProvider, type SandboxProvider } from './sandbox-provider';
import { SandboxError } from './errors';
import {
  accounts,
  balanceValue,
  callbackLog,
  controlErrorSchema,
  createAccount,
  http,
  ledger,
  listing,
  listingSchema,
  nonstaticBody,
  payout,
  personalitySchema,
  servedFaults,
  setPersonality,
  startReceiver,
  startTestSandbox,
  statusOf,
  statusSchema,
  transfer,
  transferRaw,
  waitFor,
  type Receiver,
} from '#support/sandbox-world';
import type { ManualScheduler } from '#support/clock';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxWith(
  options: Parameters<typeof startTestSandbox>[0] = {},
): Promise<{ sandbox: SandboxProvider; clock: ManualScheduler }> {
  const started = await startTestSandbox(options);
  cleanups.push(() => started.sandbox.close());
  return started;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

function tempDbPath(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-personality-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'sandbox.sqlite');
}

const flexBody = (overrides: Record<string, unknown> = {}) =>
  nonstaticBody({ type: 'static-flex', amount: undefined, expiers_in: undefined, ...overrides });

async function getPersonality(sandbox: SandboxProvider) {
  return personalitySchema.parse((await http(`${sandbox.controlUrl}/personality`)).body);
}

describe('personality control API', () => {
  it('GET shows every key at its default; POST patches and answers the full view; DELETE resets', async () => {
    const { sandbox } = await sandboxWith();
    expect(await getPersonality(sandbox)).toEqual({
      failed_status: '200',
      callbacks: 'on',
      listing_order: 'oldest_first',
      static_mismatch: 'reject',
      expired_payments: 'refuse',
      failed_callbacks: 'none',
      callback_format: 'json',
      repeat_payments: 'refuse',
      bad_row_every: 0,
      callback_delay_ms: 60_000,
      page_cap: 0,
    });

    const patched = await setPersonality(sandbox, { failed_status: '404', bad_row_every: 3 });
    expect(patched).toEqual({ ...DEFAULT_PERSONALITY, failed_status: '404', bad_row_every: 3 });
    // A second patch merges: what it leaves out stays.
    const merged = await setPersonality(sandbox, { callbacks: 'late', callback_delay_ms: 5000 });
    expect(merged).toMatchObject({ failed_status: '404', callbacks: 'late', bad_row_every: 3 });
    expect(await getPersonality(sandbox)).toEqual(merged);

    const reset = await http(`${sandbox.controlUrl}/personality`, { method: 'DELETE' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual(DEFAULT_PERSONALITY);
    expect(await getPersonality(sandbox)).toEqual(DEFAULT_PERSONALITY);
  });

  it('takes a status code as a JSON number and a count as a string of digits', async () => {
    const { sandbox } = await sandboxWith();
    expect(await setPersonality(sandbox, { failed_status: 409, bad_row_every: '4' })).toMatchObject(
      {
        failed_status: '409',
        bad_row_every: 4,
      },
    );
  });

  it.each([
    [{ failed_status: '500' }, 'failed_status: must be one of "200", "404", "409" (got "500")'],
    [{ callbacks: 'sometimes' }, 'callbacks: must be one of "on", "never", "late", "reordered"'],
    [{ listing_order: 'random' }, 'listing_order: must be one of "oldest_first", "newest_first"'],
    [{ static_mismatch: true }, 'static_mismatch: must be one of "reject", "accept" (got true)'],
    [{ expired_payments: 'maybe' }, 'expired_payments: must be one of "refuse", "accept"'],
    [{ bad_row_every: -1 }, 'bad_row_every: must be 0 (off) or a whole number N >= 1'],
    [{ bad_row_every: 1.5 }, 'bad_row_every: must be 0 (off) or a whole number N >= 1'],
    [{ callback_delay_ms: 'soon' }, 'callback_delay_ms: must be a whole number'],
    [{ colour: 'red' }, 'colour: is not a personality key; known keys: failed_status, callbacks'],
    [['callbacks'], 'body: must be a JSON object'],
  ])('refuses %j with 400 naming the key and what it allows', async (body, message) => {
    const { sandbox } = await sandboxWith();
    const result = await http(`${sandbox.controlUrl}/personality`, { body });
    expect(result.status).toBe(400);
    const error = controlErrorSchema.parse(result.body);
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toContain(message);
    expect(await getPersonality(sandbox)).toEqual(DEFAULT_PERSONALITY); // nothing half-applied
  });

  it('a refused patch changes nothing, even its valid keys', async () => {
    const { sandbox } = await sandboxWith();
    const result = await http(`${sandbox.controlUrl}/personality`, {
      body: { failed_status: '404', callbacks: 'loud' },
    });
    expect(result.status).toBe(400);
    expect((await getPersonality(sandbox)).failed_status).toBe('200');
  });

  it('is kept in the sandbox db across a restart; the start option patches over it', async () => {
    const dbPath = tempDbPath();
    const first = await startTestSandbox({ dbPath });
    await setPersonality(first.sandbox, { listing_order: 'newest_first', bad_row_every: 2 });
    await first.sandbox.close();

    const second = await startTestSandbox({ dbPath });
    expect(second.sandbox.personality()).toMatchObject({
      listing_order: 'newest_first',
      bad_row_every: 2,
    });
    await second.sandbox.close();

    const third = await sandboxWith({
      dbPath,
      personality: { bad_row_every: 0, callbacks: 'never' },
    });
    expect(await getPersonality(third.sandbox)).toEqual({
      ...DEFAULT_PERSONALITY,
      listing_order: 'newest_first',
      callbacks: 'never',
    });
  });

  it('refuses a bad start option with SandboxConfigError naming the key', async () => {
    await expect(
      startSandboxProvider({ personality: { failed_status: '418' as '200' } }),
    ).rejects.toThrow(SandboxConfigError);
    await expect(
      startSandboxProvider({ personality: { failed_status: '418' as '200' } }),
    ).rejects.toThrow(/failed_status: must be one of "200", "404", "409"/);
  });
});

describe('parsePersonalityFlag', () => {
  it('reads key=value pairs with spaces and an empty tail', () => {
    expect(parsePersonalityFlag('failed_status=404, callbacks=late ,bad_row_every=5,')).toEqual({
      failed_status: '404',
      callbacks: 'late',
      bad_row_every: 5,
    });
    expect(parsePersonalityFlag('')).toEqual({});
  });

  it.each([
    ['failed_status', 'is not key=value'],
    ['=404', 'is not key=value'],
    ['failed_status=404,failed_status=409', 'failed_status: is given twice'],
    ['listing_order=sideways', 'listing_order: must be one of'],
    ['speed=fast', 'speed: is not a personality key'],
  ])('refuses %j (%s)', (flag, message) => {
    expect(() => parsePersonalityFlag(flag)).toThrow(SandboxError);
    expect(() => parsePersonalityFlag(flag)).toThrow(message);
  });

  it('parsePersonalityPatch drops undefined keys and keeps the rest', () => {
    expect(parsePersonalityPatch({ callbacks: undefined, static_mismatch: 'accept' })).toEqual({
      static_mismatch: 'accept',
    });
  });
});

describe('failed_status', () => {
  /** An account whose only transfer had the wrong amount. */
  async function failedReference(sandbox: SandboxProvider): Promise<string> {
    const account = await createAccount(sandbox, nonstaticBody({ amount: 100 }));
    expect((await transfer(sandbox, account.account_number, 99)).status).toBe('failed');
    return account.external_reference;
  }

  it('"200" answers 200 with the failed record (today), nothing masked', async () => {
    const { sandbox } = await sandboxWith();
    const reference = await failedReference(sandbox);
    const result = await statusOf(sandbox, reference);
    expect(result.status).toBe(200);
    expect(statusSchema.parse(result.body).data).toMatchObject({ status: 'failed', amount: 99 });
    expect((await servedFaults(sandbox)).failed_status_masked).toBe(0);
  });

  it.each([
    ['404', 404, 'reference: no transaction found for this reference'],
    ['409', 409, 'reference: the transaction is still pending'],
  ] as const)(
    '"%s" answers %i as if nothing came / still pending, counted',
    async (mode, code, message) => {
      const { sandbox } = await sandboxWith();
      const reference = await failedReference(sandbox);
      await setPersonality(sandbox, { failed_status: mode });
      for (let i = 0; i < 2; i += 1) {
        const result = await statusOf(sandbox, reference);
        expect(result.status).toBe(code);
        expect(result.body).toEqual({ status: 'error', message });
      }
      expect((await servedFaults(sandbox)).failed_status_masked).toBe(2);

      // A reference with no transaction at all is a plain 404, not a masked one.
      const unpaid = await createAccount(sandbox, nonstaticBody());
      expect((await statusOf(sandbox, unpaid.external_reference)).status).toBe(404);
      // Once the exact amount comes, the success is answered whatever the reading.
      const account = await createAccount(sandbox, nonstaticBody({ amount: 100 }));
      await transfer(sandbox, account.account_number, 99);
      const paid = await transfer(sandbox, account.account_number, 100);
      const confirmed = await statusOf(sandbox, account.external_reference);
      expect(confirmed.status).toBe(200);
      expect(statusSchema.parse(confirmed.body).data.session_id).toBe(paid.session_id);
      expect((await servedFaults(sandbox)).failed_status_masked).toBe(2);
    },
  );
});

describe('listing_order', () => {
  async function seed(sandbox: SandboxProvider, count: number): Promise<string[]> {
    const account = await createAccount(sandbox, flexBody());
    const sessions: string[] = [];
    for (let i = 0; i < count; i += 1) {
      sessions.push((await transfer(sandbox, account.account_number, 10 + i)).session_id);
    }
    return sessions;
  }

  async function sessionsListed(sandbox: SandboxProvider, query = '?limit=100') {
    const result = await listing(sandbox, query);
    expect(result.status).toBe(200);
    return listingSchema.parse(result.body).data.transactions.map((t) => t.session_id);
  }

  async function pagedSessions(sandbox: SandboxProvider, limit: number): Promise<string[]> {
    const out: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await sessionsListed(sandbox, `?offset=${offset}&limit=${limit}`);
      if (page.length === 0) return out;
      out.push(...page);
    }
  }

  it('"oldest_first" (the default, today\'s order) lists in the order the transfers were made', async () => {
    const { sandbox } = await sandboxWith();
    const sessions = await seed(sandbox, 10);
    expect(await sessionsListed(sandbox)).toEqual(sessions);
    expect(await pagedSessions(sandbox, 3)).toEqual(sessions);
  });

  it('"newest_first" lists the latest first, page by page', async () => {
    const { sandbox } = await sandboxWith();
    const sessions = await seed(sandbox, 10);
    await setPersonality(sandbox, { listing_order: 'newest_first' });
    expect(await sessionsListed(sandbox)).toEqual([...sessions].reverse());
    expect(await pagedSessions(sandbox, 3)).toEqual([...sessions].reverse());
  });

  it('"shuffled" is a fixed permutation keyed on session_id: the same on every request and page', async () => {
    const { sandbox } = await sandboxWith();
    const sessions = await seed(sandbox, 12);
    await setPersonality(sandbox, { listing_order: 'shuffled' });
    const shuffled = await sessionsListed(sandbox);
    expect([...shuffled].sort()).toEqual([...sessions].sort());
    expect(shuffled).not.toEqual(sessions);
    expect(shuffled).not.toEqual([...sessions].reverse());
    expect(await sessionsListed(sandbox)).toEqual(shuffled);
    expect(await pagedSessions(sandbox, 5)).toEqual(shuffled);
    expect((await ledger(sandbox)).map((t) => t.session_id)).toEqual(sessions); // control: as made
  });
});

describe('bad_row_every', () => {
  // The shape check plus a real calendar check: "2026-02-30 25:61:00" has the right shape.
  const rowSchema = listingSchema.shape.data.shape.transactions.element.refine((row) => {
    try {
      parseProviderTimestamp(row.date);
      return true;
    } catch {
      return false;
    }
  });

  it('serves every Nth transaction unreadable, each in its own way, the same rows every time', async () => {
    const { sandbox } = await sandboxWith();
    const account = await createAccount(sandbox, flexBody());
    const made = [];
    for (let i = 0; i < 16; i += 1) made.push(await transfer(sandbox, account.account_number, 10));
    await setPersonality(sandbox, { bad_row_every: 3 });

    const raw = async (query = '?limit=100') => {
      const result = await listing(sandbox, query);
      expect(result.status).toBe(200);
      return (result.body as { data: { count: number; transactions: Record<string, unknown>[] } })
        .data;
    };
    const page = await raw();
    expect(page.count).toBe(16);
    expect(page.transactions).toHaveLength(16);
    const bad = (rows: Record<string, unknown>[]) =>
      rows.flatMap((row, i) => (rowSchema.safeParse(row).success ? [] : [i]));
    expect(bad(page.transactions)).toEqual([2, 5, 8, 11, 14]);

    const [third, sixth, ninth, twelfth, fifteenth] = [2, 5, 8, 11, 14].map(
      (i) => page.transactions[i] ?? {},
    );
    expect(third).not.toHaveProperty('session_id');
    expect(sixth).toMatchObject({ session_id: made[5]?.session_id, date: '2026-02-30 25:61:00' });
    expect(ninth).toMatchObject({ session_id: made[8]?.session_id, amount: 'NGN 10.00' });
    expect(twelfth).toMatchObject({ session_id: made[11]?.session_id });
    expect(twelfth).not.toHaveProperty('status');
    expect(typeof fifteenth?.['session_id']).toBe('number');
    // Every good row is served as it always was.
    expect(page.transactions[0]).toEqual({
      amount: 10,
      status: 'success',
      session_id: made[0]?.session_id,
      external_reference: account.external_reference,
      date: '2025-01-15 09:00:00',
    });

    // The same rows stay bad on every request, page by page, and in another order.
    const paged = [...(await raw('?offset=0&limit=4')).transactions];
    for (let offset = 4; offset < 16; offset += 4) {
      paged.push(...(await raw(`?offset=${offset}&limit=4`)).transactions);
    }
    expect(paged).toEqual(page.transactions);
    await setPersonality(sandbox, { listing_order: 'newest_first' });
    const reversed = await raw();
    expect(reversed.transactions).toEqual([...page.transactions].reverse());

    // Each answer counts the bad rows it served: 5 on the whole page, 5 over the four pages, 5
    // reversed.
    expect((await servedFaults(sandbox)).bad_rows).toBe(15);

    await setPersonality(sandbox, { bad_row_every: 0, listing_order: 'oldest_first' });
    const healed = listingSchema.parse((await listing(sandbox, '?limit=100')).body).data;
    expect(healed.transactions.map((t) => t.session_id)).toEqual(made.map((t) => t.session_id));
    expect((await servedFaults(sandbox)).bad_rows).toBe(15);
  });

  it('bad_row_every 1 makes every row unreadable', async () => {
    const { sandbox } = await sandboxWith({ personality: { bad_row_every: 1 } });
    const account = await createAccount(sandbox, flexBody());
    for (let i = 0; i < 5; i += 1) await transfer(sandbox, account.account_number, 10);
    const result = await listing(sandbox);
    const rows = (result.body as { data: { transactions: unknown[] } }).data.transactions;
    expect(rows.filter((row) => rowSchema.safeParse(row).success)).toEqual([]);
    expect((await servedFaults(sandbox)).bad_rows).toBe(5);
  });
});

describe('static_mismatch', () => {
  const staticBody = () => nonstaticBody({ type: 'static', amount: 1000, expiers_in: undefined });

  it('"reject" (default) fails a different amount; "accept" takes it as a success with its callback', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith();
    const account = await createAccount(sandbox, { ...staticBody(), callback_url: r.url });
    expect(await transfer(sandbox, account.account_number, 999)).toMatchObject({
      status: 'failed',
      reason: 'amount_mismatch',
    });

    await setPersonality(sandbox, { static_mismatch: 'accept' });
    const taken = await transfer(sandbox, account.account_number, 999);
    expect(taken).toMatchObject({ status: 'success', reason: null, amount: 999 });
    const pending = await transfer(sandbox, account.account_number, 1500, 1000);
    expect(pending.status).toBe('pending');

    await waitFor(() => (r.received.length === 1 ? true : undefined), 'the callback');
    expect(r.received[0]?.body).toMatchObject({ session_id: taken.session_id, amount: 999 });
    expect(balanceValue(await payout(sandbox), 'AvailableBalance')).toBe(99_900);
    expect((await servedFaults(sandbox)).static_mismatch_accepted).toBe(1);
  });

  it('applies at settlement of a pending transfer, counted then', async () => {
    const { sandbox, clock } = await sandboxWith({ personality: { static_mismatch: 'accept' } });
    const account = await createAccount(sandbox, staticBody());
    await transfer(sandbox, account.account_number, 1500, 1000);
    expect((await servedFaults(sandbox)).static_mismatch_accepted).toBe(0);
    await clock.advance(1000);
    expect((await ledger(sandbox)).map((t) => t.status)).toEqual(['success']);
    expect((await servedFaults(sandbox)).static_mismatch_accepted).toBe(1);
  });
});

describe('expired_payments', () => {
  it('"refuse" (default) refuses an expired or cancelled account outright', async () => {
    const { sandbox } = await sandboxWith();
    const expired = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    await http(`${sandbox.controlUrl}/accounts/${expired.account_number}/expire`, { body: {} });
    const refused = await transferRaw(sandbox, expired.account_number, 10);
    expect(refused.status).toBe(409);
    expect(controlErrorSchema.parse(refused.body).code).toBe('ACCOUNT_EXPIRED');
    expect(await ledger(sandbox)).toEqual([]);
  });

  it('"accept" lets transfers into expired and cancelled accounts through, under the amount rules', async () => {
    const r = await receiver();
    const { sandbox, clock } = await sandboxWith({ personality: { expired_payments: 'accept' } });
    const byClock = await createAccount(
      sandbox,
      nonstaticBody({ amount: 10, expiers_in: 5, callback_url: r.url }),
    );
    const cancelled = await createAccount(
      sandbox,
      nonstaticBody({ amount: 20, callback_url: r.url }),
    );
    expect(
      (
        await http(`${sandbox.controlUrl}/accounts/${cancelled.account_number}/cancel`, {
          body: {},
        })
      ).status,
    ).toBe(200);
    await clock.advance(5 * 60_000);
    expect((await accounts(sandbox)).map((a) => a.status)).toEqual(['expired', 'cancelled']);

    const wrong = await transfer(sandbox, byClock.account_number, 9);
    const exact = await transfer(sandbox, byClock.account_number, 10);
    const intoCancelled = await transfer(sandbox, cancelled.account_number, 20);
    expect([wrong.status, exact.status, intoCancelled.status]).toEqual([
      'failed',
      'success',
      'success',
    ]);

    await waitFor(() => (r.received.length === 2 ? true : undefined), 'two callbacks');
    expect(r.received.map((x) => (x.body as { session_id: string }).session_id).sort()).toEqual(
      [exact.session_id, intoCancelled.session_id].sort(),
    );
    expect(
      statusSchema.parse((await statusOf(sandbox, byClock.external_reference)).body).data,
    ).toMatchObject({ status: 'success', session_id: exact.session_id });
    expect((await servedFaults(sandbox)).expired_payment_accepted).toBe(3);
    // The account stays expired: only its payment went through.
    expect((await accounts(sandbox))[0]).toMatchObject({ status: 'expired', paid: true });
    expect((await callbackLog(sandbox)).every((c) => c.cause === 'payment')).toBe(true);
  });
});

describe('repeat_payments', () => {
  it('"refuse" (default) fails a second exact transfer into a paid nonstatic account', async () => {
    const { sandbox } = await sandboxWith();
    const account = await createAccount(sandbox, nonstaticBody({ amount: 10 }));
    const first = await transfer(sandbox, account.account_number, 10);
    const second = await transfer(sandbox, account.account_number, 10);
    expect([first.status, second.status]).toEqual(['success', 'failed']);
    expect((await servedFaults(sandbox)).repeat_payment_accepted).toBe(0);
  });

  it('"accept" takes it as a second success with its own session id and callback', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith({ personality: { repeat_payments: 'accept' } });
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 10, callback_url: r.url }),
    );
    const first = await transfer(sandbox, account.account_number, 10);
    const wrong = await transfer(sandbox, account.account_number, 9);
    const second = await transfer(sandbox, account.account_number, 10);
    expect([first.status, wrong.status, second.status]).toEqual(['success', 'failed', 'success']);
    expect(second.session_id).not.toBe(first.session_id);
    await waitFor(() => (r.received.length === 2 ? true : undefined), 'two callbacks');
    // The status endpoint shows the latest success: the second payment.
    expect(
      statusSchema.parse((await statusOf(sandbox, account.external_reference)).body).data,
    ).toMatchObject({ status: 'success', session_id: second.session_id });
    expect((await servedFaults(sandbox)).repeat_payment_accepted).toBe(1);
  });
});

describe('page_cap', () => {
  it('0 (default) honours limit; N serves at most N rows a page whatever limit asks', async () => {
    const { sandbox } = await sandboxWith();
    const account = await createAccount(sandbox, flexBody());
    for (let i = 0; i < 7; i += 1) await transfer(sandbox, account.account_number, 10 + i);
    const page = async (query: string) =>
      listingSchema.parse((await listing(sandbox, query)).body).data;
    expect((await page('?offset=0&limit=100')).transactions).toHaveLength(7);
    await setPersonality(sandbox, { page_cap: 3 });
    const capped = await page('?offset=0&limit=100');
    expect(capped.count).toBe(7);
    expect(capped.transactions).toHaveLength(3);
    expect((await page('?offset=5&limit=100')).transactions).toHaveLength(2);
    expect((await page('?offset=0&limit=2')).transactions).toHaveLength(2);
    expect((await servedFaults(sandbox)).page_capped).toBe(2);
  });

  it('refuses a negative or fractional cap', () => {
    expect(() => parsePersonalityPatch({ page_cap: -1 })).toThrow(/page_cap/);
    expect(() => parsePersonalityPatch({ page_cap: 2.5 })).toThrow(/page_cap/);
    expect(parsePersonalityFlag('page_cap=25')).toEqual({ page_cap: 25 });
  });
});

describe('callback_format foreign_form', () => {
  it('sends a form whose field names are none of ours, the reference among its values', async () => {
    const r = await receiver();
    const { sandbox } = await sandboxWith({ personality: { callback_format: 'foreign_form' } });
    const account = await createAccount(
      sandbox,
      nonstaticBody({ amount: 10, callback_url: r.url }),
    );
    const paid = await transfer(sandbox, account.account_number, 10);
    await waitFor(() => r.received[0], 'the callback');
    const got = r.received[0];
    expect(got?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const fields = Object.fromEntries(new URLSearchParams(String(got?.body)));
    expect(Object.keys(fields)).not.toContain('reference');
    expect(Object.keys(fields)).not.toContain('session_id');
    expect(Object.keys(fields)).not.toContain('amount');
    expect(Object.values(fields)).toContain(account.external_reference);
    expect(Object.values(fields)).toContain(paid.session_id);
    expect((await servedFaults(sandbox)).callbacks_foreign_form).toBe(1);
  });
});
