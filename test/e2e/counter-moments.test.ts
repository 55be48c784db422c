/**
 * The counter off the happy path (issue 33, items 5–7), in a real Chromium on the browser shell
 * and its sandbox: the keyboard at the shop PC (the focus on the next action after each change,
 * the on-screen keypad out of Tab), the amount grouped in the field as typed, a phone's Activity
 * as one card per sale with money and words whole, a small phone (360×740) keeping the sale's
 * actions on screen under a wrong-amount banner, and no developer words on the face of a screen.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '#support/chromium';
import { classContext, layoutProblems } from '#support/screen-classes';
import { AxeLedger, checkScreen, startShell, type ShellUnderTest } from '#support/screen-suite';
import { expectText, textOf, watchPage } from '#support/till-page';
import { sandboxTransfer, setSandboxPersonality } from '#support/web-till';

const SETTLE_MS = 10_000;

/** Words only a developer knows (the header, the footer, the report's headline). */
const INTERNAL =
  /callback|tunnel|polling|session|bank alert|merchant|full sync|references|till till-/i;

let shell: ShellUnderTest;
let browser: Browser;
const ledger = new AxeLedger();
const problems: string[] = [];

beforeAll(async () => {
  shell = await startShell('counter');
  browser = await launchChromium();
});

afterAll(async () => {
  console.log(ledger.report('counter-moments'));
  await browser?.close();
  await shell?.stop();
});

function amountField(page: Page): Locator {
  return page.getByRole('textbox', { name: /Amount/ });
}

async function focusedName(page: Page): Promise<string> {
  return page.evaluate<string>(
    'document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? ""',
  );
}

/** The text on the face of the element at `selector`: a closed "Details" shows its summary only. */
async function faceText(page: Page, selector: string): Promise<string> {
  // Evaluated in the page as text: this file is typed without the DOM.
  return page.evaluate<string>(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    if (!root) return 'missing: ${selector}';
    const copy = root.cloneNode(true);
    for (const details of copy.querySelectorAll('details')) {
      for (const child of [...details.children]) if (child.tagName !== 'SUMMARY') child.remove();
    }
    return copy.textContent;
  })()`);
}

/** The amount field's room left for its text, in px (negative: some of it is scrolled away). */
const TEXT_ROOM = `(() => {
  const field = document.querySelector('.amount-input');
  const style = getComputedStyle(field);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.font;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return room - context.measureText(field.value).width;
})()`;

async function openPage(context: BrowserContext, name: string): Promise<Page> {
  const page = await context.newPage();
  watchPage(page, name, problems);
  await page.goto(shell.web.first.url);
  await amountField(page).waitFor({ timeout: SETTLE_MS });
  return page;
}

/** The account number the sale shows, digits only, once it is there. */
async function shownAccountNumber(page: Page): Promise<string> {
  const number = page.getByTestId('account-number');
  await number.waitFor({ timeout: SETTLE_MS });
  return (await textOf(number)).replace(/\s/g, '');
}

async function goTo(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: link }).click();
}

describe('the shop PC at 1366×768, from the keyboard', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await classContext(browser, 'pc');
    page = await openPage(context, 'pc');
  });
  afterAll(async () => {
    await context?.close();
    expect(problems.splice(0)).toEqual([]);
  });

  it('shows the amount grouped as typed and Tabs past the on-screen keypad', async () => {
    await expect
      .poll(() => page.evaluate('document.activeElement?.className'))
      .toBe('amount-input');
    await page.keyboard.type('25000');
    expect(await amountField(page).inputValue()).toBe('₦25,000');
    await page.keyboard.press('Backspace');
    expect(await amountField(page).inputValue()).toBe('₦2,500');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.closest("label")?.textContent')).toMatch(
      /^Note/,
    );
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('New sale');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement?.className')).toBe('amount-input');
  });

  it("creates the sale with Enter and puts the focus on the sale's Cancel", async () => {
    await page.keyboard.press('Enter');
    await page.getByTestId('account-number').waitFor({ timeout: SETTLE_MS });
    expect(await textOf(page.getByTestId('amount-due'))).toBe('₦2,500.00');
    await expect.poll(() => focusedName(page)).toBe('Cancel');
  });

  it('cancels from the keyboard, then "New sale for ₦2,500.00" has the focus and Enter starts it', async () => {
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedName(page)).toBe('No, keep waiting');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Yes, cancel the sale');
    await page.keyboard.press('Enter');
    await expectText(page.getByTestId('sale-status'), /^Cancelled/, SETTLE_MS);
    await expect.poll(() => focusedName(page)).toBe('New sale for ₦2,500.00');
    await page.keyboard.press('Enter');
    await expectText(page.getByTestId('sale-status'), /Waiting for transfer/, SETTLE_MS);
    await expect.poll(() => focusedName(page)).toBe('Cancel');
  });

  it('says nothing internal in the header, the footer or the report headline', async () => {
    expect(await faceText(page, 'header.app-header')).not.toMatch(INTERNAL);
    expect(await faceText(page, 'footer')).not.toMatch(INTERNAL);
    expect(await textOf(page.getByTestId('till-id'))).toMatch(/^till-/);
    await goTo(page, 'Report');
    await page.getByTestId('report-success-count').waitFor({ timeout: SETTLE_MS });
    expect(await faceText(page, '.report-tools')).not.toMatch(INTERNAL);
    expect(await faceText(page, '.figures')).not.toMatch(INTERNAL);
    expect(await faceText(page, '.figures')).toContain('Not completed');
    expect(await faceText(page, '[data-testid="report-shop"]')).not.toMatch(INTERNAL);
    await page.getByRole('checkbox', { name: 'Check every payment again' }).waitFor();
    await goTo(page, 'Sale');
  });
});

describe('the phone counter at 390×844', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await classContext(browser, 'phone');
    page = await openPage(context, 'phone');
  });
  afterAll(async () => {
    await context?.close();
    expect(problems.splice(0)).toEqual([]);
  });

  it('takes the amount from the on-screen keys, grouped in the field on one line', async () => {
    const keypad = page.getByRole('group', { name: 'Keypad' });
    // On a touchscreen the keys are the input: in the Tab order too.
    expect(await keypad.getByRole('button', { name: '7' }).getAttribute('tabindex')).toBeNull();
    for (const key of ['9', '9', '9', '9', '9', '9', '9', '.', '9', '9']) {
      await keypad.getByRole('button', { name: key, exact: true }).tap();
    }
    expect(await amountField(page).inputValue()).toBe('₦9,999,999.99');
    await keypad.getByRole('button', { name: 'Clear amount' }).tap();
    expect(await amountField(page).inputValue()).toBe('');
  });

  it('shows Activity as one card per sale: money and words never break mid-word', async () => {
    // A paid sale of a long amount, and a cancelled one.
    await amountField(page).fill('1234567.89');
    expect(await amountField(page).inputValue()).toBe('₦1,234,567.89');
    await page.keyboard.press('Enter');
    const number = await shownAccountNumber(page);
    await sandboxTransfer(shell.web.first.control_url, number, 1234567.89);
    await expectText(page.getByTestId('sale-status'), /Paid/, SETTLE_MS);
    await page.getByRole('button', { name: 'New sale', exact: true }).tap();
    await amountField(page).fill('4567.5');
    await page.keyboard.press('Enter');
    await page.getByTestId('account-number').waitFor({ timeout: SETTLE_MS });
    await page.getByRole('button', { name: 'Cancel', exact: true }).tap();
    await page.getByRole('button', { name: 'Yes, cancel the sale' }).tap();
    await expectText(page.getByTestId('sale-status'), /^Cancelled/, SETTLE_MS);

    await goTo(page, 'Activity');
    const sales = page.getByTestId('activity-sales');
    await sales.getByText('₦1,234,567.89').waitFor({ timeout: SETTLE_MS });
    const cells = [
      ...(await sales.locator('.card-amount').all()),
      ...(await sales.locator('.card-state').all()),
      ...(await sales.getByRole('button', { name: /Reprint/ }).all()),
      ...(await page.getByTestId('activity-inflows').locator('.card-amount').all()),
    ];
    expect(cells.length).toBeGreaterThanOrEqual(5);
    const layout = await layoutProblems(page, [], { oneLine: cells, touch: true });
    expect(layout).toEqual([]);
    // A card is a card: the sale's number, time and amount on its first line.
    const firstCard = sales.locator('tbody tr').first();
    const boxes = await Promise.all(
      ['.sale-number', '.card-time', '.card-amount'].map((part) =>
        firstCard.locator(part).boundingBox(),
      ),
    );
    const tops = boxes.map((box) => Math.round(box?.y ?? -100));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(12);
    // Money in says "Received"; how it was heard and the session id wait under Details.
    expect(await faceText(page, '[data-testid="activity-inflows"]')).not.toMatch(INTERNAL);
    expect(await faceText(page, '[data-testid="activity-inflows"]')).toContain('Received');
    await goTo(page, 'Sale');
  });
});

describe('a small phone at 360×740', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await classContext(browser, 'phone', { width: 360, height: 740 });
    page = await openPage(context, 'phone 360');
  });
  afterAll(async () => {
    await context?.close();
    expect(problems.splice(0)).toEqual([]);
  });

  it('keeps Cancel and New sale on screen under a wrong-amount banner', async () => {
    // The field holds ₦9,999,999.99 whole, nothing scrolled out of sight.
    await amountField(page).fill('9999999.99');
    expect(await amountField(page).inputValue()).toBe('₦9,999,999.99');
    expect(await page.evaluate<number>(TEXT_ROOM)).toBeGreaterThanOrEqual(0);
    await setSandboxPersonality(shell.web.first.control_url, { failed_status: '404' });
    await amountField(page).fill('2000');
    // A note as a busy counter writes one: with the banner, more than a small phone holds.
    await page
      .getByRole('textbox', { name: /Note/ })
      .fill(
        'Two bags of rice, one carton of noodles and a crate of eggs, for the caterer next door',
      );
    await page.keyboard.press('Enter');
    const number = await shownAccountNumber(page);
    await sandboxTransfer(shell.web.first.control_url, number, 1999);
    await page.getByRole('button', { name: 'Customer says they paid' }).tap();
    await expectText(page.getByTestId('sale-status'), /Wrong amount/, SETTLE_MS);
    await checkScreen(
      page,
      {
        screen: 'sale-wrong-amount-360',
        screenClass: 'phone',
        mustSee: [
          { name: 'status', locator: page.getByTestId('sale-status') },
          { name: '"Cancel"', locator: page.getByRole('button', { name: 'Cancel', exact: true }) },
          {
            name: '"New sale"',
            locator: page.getByRole('button', { name: 'New sale', exact: true }),
          },
        ],
      },
      ledger,
    );
  });
});
