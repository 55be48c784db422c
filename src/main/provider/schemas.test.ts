import { describe, expect, it } from 'vitest';
import { describeListingRowProblem } from './listing-rows';
import { createResponseSchemas, describeIssues, nairaAmountSchema, toCreateBody } from './schemas';

describe('toCreateBody', () => {
  it('spells expiers_in as the provider does and sends Naira', () => {
    const body = toCreateBody({
      reference: 'TT-1',
      accountName: 'Shop',
      merchantId: 'M1',
      type: 'nonstatic',
      amountKobo: 123456,
      expiryMinutes: 15,
      callbackUrl: 'https://x.example/hook',
    });
    expect(JSON.stringify(body)).toBe(
      '{"reference":"TT-1","account_name":"Shop","merchant_id":"M1","amount":1234.56,"expiers_in":15,"type":"nonstatic","callback_url":"https://x.example/hook","merchant":"others"}',
    );
  });
});

describe('nairaAmountSchema', () => {
  it.each([
    [0.1 + 0.2, false],
    [1.005, false],
    [-0.01, false],
    [Number.NaN, false],
    [0.3, true],
    [99999999.99, true],
  ])('%d accepted: %s', (value, accepted) => {
    expect(nairaAmountSchema.safeParse(value).success).toBe(accepted);
  });

  it('is exact where floats are not', () => {
    expect(nairaAmountSchema.parse(99999999.99)).toBe(9999999999);
    expect(nairaAmountSchema.parse(1.15)).toBe(115);
  });
});

describe('response schemas', () => {
  const row = {
    amount: 10,
    status: 'chargeback',
    session_id: '1'.repeat(30),
    external_reference: 'TT-1',
    date: '2026-11-22 09:05:00',
  };

  it('keeps a page with one odd status, and sets a bad row aside with its index in the page', () => {
    const { listResponse } = createResponseSchemas();
    const page = listResponse.parse({ status: 'success', data: { count: 1, transactions: [row] } });
    expect(page.transactions[0]).toMatchObject({ status: 'unknown', rawStatus: 'chargeback' });
    expect(page.unreadable).toEqual([]);

    const mixed = listResponse.parse({
      status: 'success',
      data: { count: 2, transactions: [row, { ...row, session_id: 5 }] },
    });
    expect(mixed.transactions).toHaveLength(1);
    expect(mixed.unreadable).toEqual([
      {
        position: 1,
        raw: JSON.stringify({ ...row, session_id: 5 }),
        problem: 'session_id: not a string of digits',
      },
    ]);
  });

  it('still refuses the whole page when the envelope is wrong, naming the field', () => {
    const { listResponse } = createResponseSchemas();
    const bad = listResponse.safeParse({ status: 'success', data: { count: 2, transactions: {} } });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(describeIssues(bad.error)).toMatch(/^data\.transactions: /);
  });

  it('describes row problems without their values', () => {
    const { listResponse } = createResponseSchemas();
    const page = listResponse.parse({
      status: 'success',
      data: { count: 1, transactions: [{ ...row, date: '2026-13-45 99:00:00', amount: 1.234 }] },
    });
    expect(page.unreadable[0]?.problem).toBe(
      "amount: not a Naira amount (a number, 0 or more, at most 2 decimals); date: not a provider date ('YYYY-MM-DD HH:MM:SS', a real day and time)",
    );
    expect(page.unreadable[0]?.problem).not.toMatch(/2026-13|1\.234/);
    expect(describeListingRowProblem(42, null)).toBe('row: number, not an object');
    expect(describeListingRowProblem({}, null)).toBe(
      'amount: missing; status: missing; session_id: missing; external_reference: missing; date: missing',
    );
  });
});
