/**
 * Every button a message names exists. Messages of main, shared and the renderer (alerts, the
 * report's advice, notices) name a button by the convention in test/support/button-names.ts
 * (press/choose/click/tap, then the exact label in double quotes); each name must be the label
 * of a button the renderer draws, or of the desktop app's tray menu.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  nameMatches,
  namedButtons,
  rendererButtonLabels,
  sourceFiles,
  trayMenuLabels,
} from '#support/button-names';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

describe('buttons named in messages', () => {
  const messages = namedButtons(
    [
      ...sourceFiles(join(src, 'main')),
      ...sourceFiles(join(src, 'shared')),
      ...sourceFiles(join(src, 'renderer')),
    ],
    root,
  );
  const labels = new Set([
    ...rendererButtonLabels(sourceFiles(join(src, 'renderer'))),
    ...trayMenuLabels(sourceFiles(join(src, 'main', 'desktop'))),
  ]);

  it('are found: the messages that name buttons are read', () => {
    const names = new Set(messages.map((m) => m.name));
    for (const name of [
      'Customer says they paid',
      'Record what was done',
      'Sync',
      'Test callbacks',
    ])
      expect(names, name).toContain(name);
    expect(labels).toContain('Customer says they paid');
  });

  it('each name a button the till shows (or a tray menu item)', () => {
    const missing = messages.filter((m) => !nameMatches(m.name, labels));
    expect(missing).toEqual([]);
  });

  it('a wrong name is caught', () => {
    expect(nameMatches('Customer says paid', labels)).toBe(false);
    expect(nameMatches('Restart to update', labels)).toBe(false);
    expect(nameMatches('Restart to update to ${next.version}', labels)).toBe(true);
  });
});
