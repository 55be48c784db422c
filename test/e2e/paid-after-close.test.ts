/**
 * A closed sale that still gets paid, where the cashier looks: real Chromium, the browser shell
 * (--dev-clock), the embedded sandbox, the customer display beside the till. The interface has
 * no cancel, so a cancelled account stays payable: the cancel question says until when; money
 * after a cancel or after expiry is amber on the sale (never the green paid banner), with "Gave
 * the goods" and "Refunded" recording the report's resolution of the same case; Activity says
 * which; the display sends the customer to the cashier. At every till class.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZReportView } from '#shared/views';
import { coloursOf, TILL_CLASSES, type ScreenClass } from '#support/screen-classes';
import { checkScreen, type ShellUnderTest } from '#support/screen-suite';
import { expectText, startSale, textOf } from '#support/till-page';
import { saleIdOn, startTillWithDisplay, type TillWithDisplay } from '#support/till-with-display';
import { advanceTillClock, callTill, sandboxTransfer } from '#support/web-till';

const SETTLE_MS = 10_000;
const PAST_EXPIRY_MS = 15 * 60_000 + 10_000;
/** The theme's amber on its pale amber (styles.css --amber, --amber-bg). */
const AMBER = { color: 'rgb(138, 75, 0)', background: 'rgb(255, 243, 205)' };
const SEE_CASHIER = 'Payment received: please see the cashier';

let counter: TillWithDisplay;
let shell: ShellUnderTest;
let display: Page;

beforeAll(async () => {
  // A provider that takes money into an expired account (CONTRACTS.md personalities).
  counter = await startTillWithDisplay('paid-after-close', { expired_payments: 'accept' });
  ({ shell, display } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

/** The amber banner: its words, its colours, no tick, no green paid amount. */
async function expectAmber(page: Page, words: RegExp): Promise<void> {
  const status = page.getByTestId('sale-status');
  await expectText(status, words, SETTLE_MS);
  expect(await coloursOf(status)).toEqual(AMBER);
  expect(await textOf(status)).not.toContain('✓');
  expect(await page.getByTestId('paid-amount').count()).toBe(0);
}

/** The display: the customer is sent to the cashier, with no number and no "thank you". */
async function expectDisplaySeeCashier(): Promise<void> {
  await display.getByRole('heading', { name: SEE_CASHIER }).waitFor({ timeout: SETTLE_MS });
  expect(await display.getByText('Paid, thank you').count()).toBe(0);
  expect(await display.getByTestId('account-number').count()).toBe(0);
  expect(await display.getByTestId('qr-code').count()).toBe(0);
}

/** What the report records for the sale's paid-late case (the owner's report channel). */
async function reportResolution(saleId: number) {
  const answer = await callTill(shell.web.first.url, 'getZReport', {});
  if (!answer.ok) throw new Error(`getZReport: ${answer.error.message}`);
  const report = answer.value as ZReportView;
  return report.exceptions.find((e) => e.key === `paid_late:sale:${saleId}`)?.resolution;
}

describe.each(TILL_CLASSES)('at the %s class, the display beside', (screenClass: ScreenClass) => {
  let context: BrowserContext;
  let page: Page;
  const saleIds: number[] = [];

  beforeAll(async () => {
    ({ context, page } = await counter.openTill(screenClass));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('a cancelled sale paid after all: amber on the sale, "Gave the goods" recorded on the report', async () => {
    const number = await startSale(page, 2000, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const question = page.getByRole('group', { name: 'Cancel this sale?' });
    const grouped = `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
    expect(await textOf(question.getByTestId('cancel-still-payable'))).toMatch(
      new RegExp(
        `^The customer can still pay into ${grouped} until \\d{2}:\\d{2}\\. If money arrives after you cancel, the till will tell you\\.$`,
      ),
    );
    await question.getByRole('button', { name: 'Yes, cancel the sale' }).click();
    await expectText(page.getByTestId('sale-status'), /^Cancelled/, SETTLE_MS);

    // No cancel at the provider: the customer's transfer still lands.
    await sandboxTransfer(shell.web.first.control_url, number, 2000);
    await expectAmber(page, /^₦2,000\.00 arrived after you cancelled: give the goods or refund/);
    const saleId = await saleIdOn(page);
    saleIds.push(saleId);
    await expectDisplaySeeCashier();
    const gave = page.getByRole('button', { name: 'Gave the goods' });
    const refunded = page.getByRole('button', { name: 'Refunded' });
    await checkScreen(
      page,
      {
        screen: 'sale-paid-after-cancel',
        screenClass,
        mustSee: [
          { name: 'amber banner', locator: page.getByTestId('sale-status') },
          { name: '"Gave the goods"', locator: gave },
          { name: '"Refunded"', locator: refunded },
        ],
      },
      counter.ledger,
    );
    if (screenClass === 'touch') {
      await checkScreen(
        display,
        {
          screen: 'display-see-cashier',
          screenClass: 'display',
          mustSee: [
            { name: 'words', locator: display.getByRole('heading', { name: SEE_CASHIER }) },
          ],
        },
        counter.ledger,
      );
    }

    await gave.click();
    await expectText(
      page.getByTestId('paid-late-done'),
      /^Done: Goods given · by owner · /,
      SETTLE_MS,
    );
    expect(await gave.count()).toBe(0);
    // Dealt with: the display welcomes the next customer.
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
    expect(await reportResolution(saleId)).toMatchObject({
      action: 'goods_given',
      resolvedBy: 'owner',
    });
  });

  it('a sale paid after it expired: amber, "Refunded" asks for the bank reference, recorded on the report', async () => {
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    const number = await startSale(page, 2000, SETTLE_MS);
    await display.getByTestId('qr-code').waitFor({ timeout: SETTLE_MS });
    await advanceTillClock(shell.web.first.url, PAST_EXPIRY_MS);
    await expectText(page.getByTestId('sale-status'), /^Expired/, SETTLE_MS);

    await sandboxTransfer(shell.web.first.control_url, number, 2000);
    await expectAmber(
      page,
      /^₦2,000\.00 arrived after the sale expired: is the customer still here\? Give the goods or refund/,
    );
    const saleId = await saleIdOn(page);
    saleIds.push(saleId);
    await expectDisplaySeeCashier();
    await checkScreen(
      page,
      {
        screen: 'sale-paid-late',
        screenClass,
        mustSee: [
          { name: 'amber banner', locator: page.getByTestId('sale-status') },
          {
            name: '"Gave the goods"',
            locator: page.getByRole('button', { name: 'Gave the goods' }),
          },
          { name: '"Refunded"', locator: page.getByRole('button', { name: 'Refunded' }) },
        ],
      },
      counter.ledger,
    );

    const reference = `RF-${screenClass}-${saleId}`;
    await page.getByRole('button', { name: 'Refunded' }).click();
    await page
      .getByRole('textbox', { name: 'Bank reference of the refund transfer' })
      .fill(reference);
    await page.getByRole('button', { name: 'Save refund' }).click();
    await expectText(
      page.getByTestId('paid-late-done'),
      new RegExp(`^Done: Refunded by transfer \\(bank reference ${reference}\\) · by owner · `),
      SETTLE_MS,
    );
    await display.getByText('Welcome').waitFor({ timeout: SETTLE_MS });
    expect(await reportResolution(saleId)).toMatchObject({
      action: 'refunded',
      bankReference: reference,
    });
  });

  it('Activity marks both amber, "Paid after cancel" and "Paid after expiry", not Paid', async () => {
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Activity' })
      .click();
    const table = page.getByTestId('activity-sales');
    await table.waitFor({ timeout: SETTLE_MS });
    const [cancelled, expired] = saleIds;
    for (const [saleId, words] of [
      [cancelled, 'Paid after cancel'],
      [expired, 'Paid after expiry'],
    ] as const) {
      const row = table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: `#${saleId}`, exact: true }) });
      const state = row.locator('.state');
      await expectText(state, words, SETTLE_MS);
      expect((await coloursOf(state)).color).toBe(AMBER.color);
    }
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Sale' })
      .click();
  });
});
