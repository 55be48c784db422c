import { describe, expect, it } from 'vitest';
import { isTrustedIpcSender, isTrustedRendererUrl } from './trusted-sender';

const prod = {
  rendererFile: 'file:///opt/Transfer%20Till/resources/app.asar/out/renderer/index.html',
};
const dev = { ...prod, devServerUrl: 'http://localhost:5173/' };

describe('isTrustedRendererUrl', () => {
  it('trusts our own built index.html, with or without a fragment', () => {
    expect(isTrustedRendererUrl(prod.rendererFile, prod)).toBe(true);
    expect(isTrustedRendererUrl(`${prod.rendererFile}#/report`, prod)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'not a url',
    'file:///etc/passwd',
    'file:///opt/Transfer%20Till/resources/app.asar/out/renderer/evil.html',
    'file://remote-host/opt/Transfer%20Till/resources/app.asar/out/renderer/index.html',
    'https://example.com/',
    'data:text/html,<script>1</script>',
    'http://localhost:5173/',
  ])('refuses %s in production', (url) => {
    expect(isTrustedRendererUrl(url, prod)).toBe(false);
  });

  it('trusts the dev server origin only in development', () => {
    expect(isTrustedRendererUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost.evil.com:5173/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173@evil.com/', dev)).toBe(false);
  });

  it('refuses a dev server that is not on this machine', () => {
    expect(
      isTrustedRendererUrl('http://10.0.0.5:5173/', {
        ...prod,
        devServerUrl: 'http://10.0.0.5:5173/',
      }),
    ).toBe(false);
  });
});

describe('isTrustedIpcSender', () => {
  const till = { isMainFrame: true, isCustomerDisplay: false };

  it("accepts only the top frame of our own renderer in a till's window", () => {
    expect(isTrustedIpcSender({ ...till, url: prod.rendererFile }, prod)).toBe(true);
    expect(isTrustedIpcSender({ ...till, url: `${prod.rendererFile}#/display` }, prod)).toBe(true);
  });

  it.each([
    ['no frame (window gone)', null],
    ['an iframe of our own page', { ...till, url: prod.rendererFile, isMainFrame: false }],
    ['another page', { ...till, url: 'https://evil.example/' }],
    ['a data: page', { ...till, url: 'data:text/html,x' }],
    [
      "the customer display's window, even on our own page",
      { url: `${prod.rendererFile}#/display`, isMainFrame: true, isCustomerDisplay: true },
    ],
    [
      "the customer display's window on any route",
      { url: prod.rendererFile, isMainFrame: true, isCustomerDisplay: true },
    ],
  ] as const)('refuses %s', (_label, frame) => {
    expect(isTrustedIpcSender(frame, prod)).toBe(false);
  });
});
