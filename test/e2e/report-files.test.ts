/**
 * The report's files and a reprint, end to end: real Chromium, the browser shell, the embedded
 * sandbox. A paid sale, Sync; "Save as PDF" downloads a PDF whose text (Debian's pdftotext)
 * carries the figures the screen shows; "Export CSV" downloads a file that starts with the UTF-8
 * byte-order mark; Activity reprints the sale's receipt through the print dialog.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '#support/parse-csv';
import { pdfText } from '#support/pdf-text';
import { E2E_ARTIFACTS, startReportTill, type ReportTill } from '#support/report-till';
import { sandboxTransfer } from '#support/web-till';

const artifacts = E2E_ARTIFACTS;
const SETTLE_MS = 10_000;

async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

async function saved(download: Download): Promise<Buffer> {
  const file = join(dataDir, download.suggestedFilename());
  await download.saveAs(file);
  return readFileSync(file);
}

let counter: ReportTill;
let web: ReportTill['web'];
let dataDir: string;
let till: Page;
let problems: string[];

beforeAll(async () => {
  counter = await startReportTill('report-files', {
    // Headless Chromium has no print dialog to show: count the pages' calls instead.
    initScript: 'window.printCalls = 0; window.print = () => { window.printCalls += 1; };',
  });
  ({ web, dataDir, till, problems } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

describe('report files', () => {
  it("saves the day's report as a PDF with the screen's figures, and a CSV with the BOM", async () => {
    // A paid sale of ₦1,500.50.
    await till.getByRole('textbox', { name: /Amount/ }).fill('1500.50');
    await till.keyboard.press('Enter');
    const accountNumber = till.getByTestId('account-number');
    await accountNumber.waitFor({ timeout: SETTLE_MS });
    const account = (await textOf(accountNumber)).replace(/\s+/g, '');
    await sandboxTransfer(web.first.control_url, account, 1500.5);
    await expect
      .poll(() => textOf(till.getByTestId('sale-status')), { timeout: SETTLE_MS })
      .toMatch(/Paid/);

    await till.getByRole('link', { name: 'Report', exact: true }).click();
    await till.getByRole('button', { name: 'Sync', exact: true }).click();
    await till.getByText(/Sync complete/).waitFor({ timeout: SETTLE_MS });
    const count = await textOf(till.getByTestId('report-success-count'));
    const amount = await textOf(till.getByTestId('report-success-amount'));
    expect(count).toBe('1');
    expect(amount).toBe('₦1,500.50');

    const [pdf] = await Promise.all([
      till.waitForEvent('download'),
      till.getByRole('button', { name: 'Save as PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/^transfer-till-\d{4}-\d{2}-\d{2}\.pdf$/);
    const bytes = await saved(pdf);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    // The headline row carries the screen's count and amount, "₦" and all.
    expect(text).toMatch(
      new RegExp(
        `Successful \\(all tills and accounts\\)\\s+${count}\\s+${amount.replace('.', '\\.')}`,
      ),
    );
    expect(text).toMatch(new RegExp(`Shop total\\s+${count}\\s+${amount.replace('.', '\\.')}`));
    expect(text).toContain('SANDBOX: practice money, not real');
    expect(text).toContain('Last synced at');
    expect(text).toMatch(/Page 1 of \d+/);
    await till.getByText(/^Saved transfer-till-.*\.pdf \(\d+ pages?\)\.$/).waitFor();

    const [csv] = await Promise.all([
      till.waitForEvent('download'),
      till.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csvBytes = await saved(csv);
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(csvBytes.toString('utf8'));
    expect(header?.[0]).toBe('session_id');
    const paid = rows.find((row) => row[header?.indexOf('amount_naira') ?? -1] === '1500.50');
    expect(paid?.[header?.indexOf('status') ?? -1]).toBe('success');
    await till.screenshot({ path: join(artifacts, 'report-files.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('reprints the paid receipt from Activity through the print dialog', async () => {
    await till.getByRole('link', { name: 'Activity', exact: true }).click();
    const reprint = till.getByRole('button', { name: /^Reprint receipt of sale #\d+$/ });
    await reprint.waitFor({ timeout: SETTLE_MS });
    await reprint.click();
    await expect.poll(() => till.evaluate('window.printCalls')).toBe(1);
    const sheet = till.locator('.receipt-sheet');
    expect(await textOf(sheet)).toContain('₦1,500.50');
    const printing = "document.body.classList.contains('printing-receipt')";
    expect(await till.evaluate(printing)).toBe(true);
    await till.evaluate("window.dispatchEvent(new Event('afterprint'))");
    expect(await till.evaluate(printing)).toBe(false);
    expect(problems).toEqual([]);
  });
});
