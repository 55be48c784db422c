import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

describe('npm start without an obtainable Electron binary', () => {
  it('exits non-zero within 30 s, names the browser shell and prints no stack trace', () => {
    const empty = mkdtempSync(join(tmpdir(), 'till-no-electron-'));
    const started = Date.now();
    // The Electron download is pointed at a closed local port and an empty cache, so this test
    // behaves the same on a machine that has internet or already has Electron installed.
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        ELECTRON_OVERRIDE_DIST_PATH: empty,
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
        electron_config_cache: empty,
        TRANSFER_TILL_ELECTRON_TIMEOUT_MS: '20000',
      },
    });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(1);
    expect(elapsed).toBeLessThan(30_000);
    expect(result.stderr).toContain('npm run web');
    expect(result.stderr).toContain('could not start the desktop app');
    expect(result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });
});
