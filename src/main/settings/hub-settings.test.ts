/** The shop hub's settings: the LAN listener's on/off choice and its fixed port. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAN_PORT } from '#shared/hub';
import { SettingsValidationError } from './errors';
import { openNodeSettings } from './node-settings';
import { createSettingsStore, type SettingsStore } from './settings-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openStore(dir = mkdtempSync(join(tmpdir(), 'tt-hub-settings-'))): {
  readonly store: SettingsStore;
  readonly dir: string;
} {
  dirs.push(dir);
  return { store: createSettingsStore(openNodeSettings(dir, '0.1.0').backend), dir };
}

function refusal(run: () => unknown): SettingsValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsValidationError) return error;
    throw error;
  }
  throw new Error('expected a SettingsValidationError');
}

describe('hub settings', () => {
  it('start with the LAN listener off, on port 7443 of every address of this computer', () => {
    const { store } = openStore();
    expect(store.get().hub).toEqual({
      lanEnabled: false,
      lanPort: DEFAULT_LAN_PORT,
      lanHost: '0.0.0.0',
    });
    expect(DEFAULT_LAN_PORT).toBe(7443);
  });

  it('keep the choice and the port in the settings file, across a reopen', () => {
    const { store, dir } = openStore();
    store.update({ hub: { lanEnabled: true, lanPort: 8443, lanHost: '192.168.1.20' } });
    const onDisk = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as {
      hub: unknown;
    };
    const saved = { lanEnabled: true, lanPort: 8443, lanHost: '192.168.1.20' };
    expect(onDisk.hub).toEqual(saved);
    expect(openStore(dir).store.get().hub).toEqual(saved);
  });

  it.each([
    [80, 'A port from 1024 to 65535'],
    [0, 'A port from 1024 to 65535'],
    [65536, 'A port from 1024 to 65535'],
    [7443.5, 'A whole port number'],
  ])('refuse LAN port %s with words and the field', (lanPort, message) => {
    const { store } = openStore();
    const error = refusal(() => store.update({ hub: { lanPort } }));
    expect(error.field).toBe('hub.lanPort');
    expect(error.issues[0]?.message).toBe(message);
    expect(error.message).toBe(`LAN port: ${message}`);
    expect(store.get().hub.lanPort).toBe(DEFAULT_LAN_PORT);
  });

  it('refuse a choice that is not on or off, and keys that do not exist', () => {
    const { store } = openStore();
    expect(refusal(() => store.update({ hub: { lanEnabled: 'yes' } })).field).toBe(
      'hub.lanEnabled',
    );
    expect(() => store.update({ hub: { lanAddress: '0.0.0.0' } })).toThrow();
    expect(store.get().hub.lanEnabled).toBe(false);
  });

  it.each(['shop-pc.local', '192.168.1', '300.1.1.1', 'https://192.168.1.20', ''])(
    'refuse LAN address %j: an IP address of this computer, in shop words',
    (lanHost) => {
      const { store } = openStore();
      const error = refusal(() => store.update({ hub: { lanHost } }));
      expect(error.field).toBe('hub.lanHost');
      expect(error.message).toBe(
        'LAN address: Enter an address of this computer like 192.168.1.20, or choose "All addresses of this computer"',
      );
      expect(store.get().hub.lanHost).toBe('0.0.0.0');
    },
  );

  it.each(['192.168.1.20', '0.0.0.0', '::', 'fe80::1'])('take LAN address %s', (lanHost) => {
    const { store } = openStore();
    expect(store.update({ hub: { lanHost } }).hub.lanHost).toBe(lanHost);
  });
});
