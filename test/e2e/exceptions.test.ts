/**
 * An exception resolved by the owner, end to end: real Chromium, the browser shell, the embedded
 * sandbox. A sale cancelled and then paid is a late payment: the report lists it as an open
 * exception; the owner records the refund with its bank reference; the report shows it resolved
 * and the CSV the owner downloads carries the resolution on the payment's row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '#support/parse-csv';
import { E2E_ARTIFACTS, startReportTill, type ReportTill } from '#support/report-till';
import { textOf } from '#support/till-page';
import { sandboxTransfer } from '#support/web-till';

const artifacts = E2E_ARTIFACTS;
const SETTLE_MS = 10_000;
const BANK_REFERENCE = 'FT2611230001';

let counter: ReportTill;
let web: ReportTill['web'];
let dataDir: string;
let till: Page;
let problems: string[];

beforeAll(async () => {
  counter = await startReportTill('exceptions');
  ({ web, dataDir, till, problems } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

describe('an exception resolved by the owner', () => {
  it('shows as resolved in the report and in the CSV', async () => {
    // A late payment: the sale is cancelled, then the customer pays after all.
    const amount = till.getByRole('textbox', { name: /Amount/ });
    await amount.fill('2500');
    await till.keyboard.press('Enter');
    const accountNumber = till.getByTestId('account-number');
    await accountNumber.waitFor({ timeout: SETTLE_MS });
    const account = (await textOf(accountNumber)).replace(/\s+/g, '');
    await till.getByRole('button', { name: 'Cancel', exact: true }).click();
    await till
      .getByRole('group', { name: 'Cancel this sale?' })
      .getByRole('button', { name: 'Yes, cancel the sale' })
      .click();
    await sandboxTransfer(web.first.control_url, account, 2500);
    await expect
      .poll(() => textOf(till.getByTestId('sale-status')), { timeout: SETTLE_MS })
      .toMatch(/arrived after you cancelled: give the goods or refund/);

    await till.getByRole('link', { name: 'Report', exact: true }).click();
    await till.getByRole('button', { name: 'Sync', exact: true }).click();
    await till.getByText(/Sync complete/).waitFor({ timeout: SETTLE_MS });

    const exception = till
      .getByRole('listitem')
      .filter({ has: till.getByTestId('exception-resolution') })
      .filter({ hasText: '₦2,500.00' });
    await exception.waitFor({ timeout: SETTLE_MS });
    const resolution = exception.getByTestId('exception-resolution');
    expect(await resolution.getAttribute('data-state')).toBe('open');

    await exception.getByRole('button', { name: 'Record what was done' }).click();
    await exception.getByRole('radio', { name: 'Refunded by transfer' }).check();
    // Refunded needs the bank reference: saving without it is refused with a clear message.
    await exception.getByRole('button', { name: 'Save' }).click();
    await exception
      .getByText(/bank reference/i)
      .first()
      .waitFor();
    expect(await resolution.getAttribute('data-state')).toBe('open');
    await exception
      .getByRole('textbox', { name: 'Bank reference of the refund transfer' })
      .fill(BANK_REFERENCE);
    await exception.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => resolution.getAttribute('data-state'), { timeout: SETTLE_MS })
      .toBe('resolved');
    const shown = await textOf(resolution);
    expect(shown).toContain('Refunded by transfer');
    expect(shown).toContain(BANK_REFERENCE);
    await till.screenshot({ path: join(artifacts, 'exception-resolved.png'), fullPage: true });

    const [download] = await Promise.all([
      till.waitForEvent('download'),
      till.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const file = join(dataDir, download.suggestedFilename());
    await download.saveAs(file);
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    const column = (name: string) => {
      const index = header?.indexOf(name) ?? -1;
      if (index < 0) throw new Error(`the CSV has no ${name} column`);
      return index;
    };
    const late = rows.find((row) => row[column('exception')] === 'Paid late');
    expect(late?.[column('resolution')]).toBe('Refunded by transfer');
    expect(late?.[column('bank_reference')]).toBe(BANK_REFERENCE);
    expect(late?.[column('amount_naira')]).toBe('2500.00');
    expect(problems).toEqual([]);
  });
});
