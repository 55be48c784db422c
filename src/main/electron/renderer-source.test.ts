import { describe, expect, it } from 'vitest';
import { isTrustedIpcSender } from '#main/security/trusted-sender';
import { rendererSource } from './renderer-source';

const rendererIndex = '/opt/Transfer Till/resources/app.asar/out/renderer/index.html';
const rendererFile = 'file:///opt/Transfer%20Till/resources/app.asar/out/renderer/index.html';
const DEV_URL = 'http://localhost:5173';

describe('rendererSource (ELECTRON_RENDERER_URL)', () => {
  it('packaged: ignores the variable: the built file, the strict CSP, only the file trusted', () => {
    const source = rendererSource({ isPackaged: true, rendererUrl: DEV_URL, rendererIndex });
    expect(source).toEqual({
      load: { kind: 'file', path: rendererIndex },
      devCsp: false,
      trusted: { rendererFile },
    });
    const fromDevServer = { url: `${DEV_URL}/`, isMainFrame: true, isCustomerDisplay: false };
    expect(isTrustedIpcSender(fromDevServer, source.trusted)).toBe(false);
  });

  it('unpackaged with the variable: the dev server, its CSP, and it is trusted', () => {
    const source = rendererSource({ isPackaged: false, rendererUrl: DEV_URL, rendererIndex });
    expect(source).toEqual({
      load: { kind: 'url', url: DEV_URL },
      devCsp: true,
      trusted: { rendererFile, devServerUrl: DEV_URL },
    });
    const fromDevServer = { url: `${DEV_URL}/`, isMainFrame: true, isCustomerDisplay: false };
    expect(isTrustedIpcSender(fromDevServer, source.trusted)).toBe(true);
  });

  it('unpackaged without it (or empty): the built file, as when packaged', () => {
    for (const rendererUrl of [undefined, '']) {
      expect(rendererSource({ isPackaged: false, rendererUrl, rendererIndex })).toEqual({
        load: { kind: 'file', path: rendererIndex },
        devCsp: false,
        trusted: { rendererFile },
      });
    }
  });
});
