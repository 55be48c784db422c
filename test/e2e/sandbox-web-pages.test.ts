/**
 * No web page pays a training sale or reads the sandbox's keys, in a real browser. Chromium
 * opens a page of another local origin (a second HTTP server on another port) that sends the
 * sandbox a no-cors POST /transfers, as any site a cashier visits could; and it opens the
 * sandbox by a name that resolves to 127.0.0.1 (a DNS-rebinding page's Host). The sandbox's
 * own origin still works from the same browser, so the refusals are the sandbox's, not the
 * browser's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxProvider } from '#main/sandbox/sandbox-provider';
import { launchChromium } from '#support/chromium';
import { accounts, createAccount, ledger, startTestSandbox } from '#support/sandbox-world';

/** Resolved to 127.0.0.1 by Chromium alone (--host-resolver-rules): a rebound DNS name. */
const REBOUND_NAME = 'rebound.example';

let sandbox: SandboxProvider;
let otherSite: Server;
let otherOrigin: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ sandbox } = await startTestSandbox());
  otherSite = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>a shop</title>');
  });
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
  browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND_NAME} 127.0.0.1`]);
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => otherSite?.close(resolve));
  await sandbox?.close();
});

/** The page sends POST /transfers as a no-cors fetch (an opaque answer: it learns nothing). */
function payFromPage(
  controlUrl: string,
  accountNumber: string,
  mode: 'no-cors' | 'same-origin',
): Promise<number> {
  return page.evaluate(
    async ({ url, body, mode }) => {
      const answer = await fetch(url, { method: 'POST', mode, body });
      return answer.status;
    },
    {
      url: `${controlUrl}/transfers`,
      body: JSON.stringify({ account_number: accountNumber, amount: 2505 }),
      mode,
    },
  );
}

it('a page of another origin cannot pay a training sale with a no-cors POST', async () => {
  const account = await createAccount(sandbox);
  await page.goto(otherOrigin);
  await payFromPage(sandbox.controlUrl, account.account_number, 'no-cors');
  expect(await ledger(sandbox)).toEqual([]);
  expect((await accounts(sandbox))[0]).toMatchObject({ paid: false });

  // The same browser on the sandbox's own origin pays it: the refusal above was the sandbox's.
  await page.goto(`${sandbox.controlUrl}/info`);
  expect(await payFromPage(sandbox.controlUrl, account.account_number, 'same-origin')).toBe(200);
  expect((await ledger(sandbox)).map((t) => t.status)).toEqual(['success']);
});

it('a page on a rebound DNS name cannot read the keys or the ledger', async () => {
  for (const path of ['/control/info', '/control/ledger']) {
    const answer = await page.goto(`http://${REBOUND_NAME}:${sandbox.port}${path}`);
    expect(answer?.status()).toBe(421);
    expect(await page.content()).not.toContain(sandbox.secretKey);
  }
});
