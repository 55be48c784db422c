import { describe, expect, it } from 'vitest';
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

  it('keeps a page with one odd status and says which row is wrong otherwise', () => {
    const { listResponse } = createResponseSchemas();
    const page = listResponse.parse({ status: 'success', data: { count: 1, transactions: [row] } });
    expect(page.transactions[0]).toMatchObject({ status: 'unknown', rawStatus: 'chargeback' });

    const bad = listResponse.safeParse({
      status: 'success',
      data: { count: 2, transactions: [row, { ...row, session_id: 5 }] },
    });
    expect(bad.success).toBe(false);
    if (!bad.success)
      expect(describeIssues(bad.error)).toMatch(/^data\.transactions\[1\]\.session_id: /);
  });
});
