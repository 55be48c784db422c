import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '#main/core/create-core';
import { ManualScheduler } from '#support/clock';

describe('daily backup in the running core', () => {
  it('writes a backup a minute after start, and quitting during it waits instead of failing it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-backup-'));
    const scheduler = new ManualScheduler();
    const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test', scheduler });
    await scheduler.advance(60_000);
    // The backup has started (asynchronously); close at once.
    await core.close();
    const dir = join(dataDir, 'backups', 'sandbox');
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8');
    expect(log).toContain('daily backup written');
    expect(log).not.toContain('daily backup failed');
    // No timer is left behind to run against the closed database.
    expect(scheduler.pending()).toBe(0);
  });
});
