import { describe, expect, it } from 'vitest';
import { windowOpenDecision } from './window-open-rule';

const prod = { rendererFile: 'file:///opt/Transfer%20Till/resources/app/out/renderer/index.html' };
const dev = { rendererFile: prod.rendererFile, devServerUrl: 'http://localhost:5173' };

describe('windowOpenDecision (the till asks for the customer display)', () => {
  it("opens the display for our own renderer's #/display", () => {
    expect(windowOpenDecision(`${prod.rendererFile}#/display`, prod)).toBe('open-display');
    expect(windowOpenDecision('http://localhost:5173/#/display', dev)).toBe('open-display');
  });

  it('refuses any other screen of our renderer: the till never opens a second till', () => {
    for (const hash of ['', '#/sale', '#/settings', '#/display&token=abc', '#/displayx']) {
      expect(windowOpenDecision(`${prod.rendererFile}${hash}`, prod)).toBe('deny');
    }
  });

  it('refuses other pages, look-alike files and the dev server when not developing', () => {
    for (const url of [
      'https://example.com/#/display',
      'file:///tmp/index.html#/display',
      'http://localhost:5173/#/display',
      'data:text/html,<p>#/display',
      'not a url',
    ]) {
      expect(windowOpenDecision(url, prod)).toBe('deny');
    }
    expect(windowOpenDecision('http://localhost:5174/#/display', dev)).toBe('deny');
  });
});
