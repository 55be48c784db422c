import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_DB_FILE, sandboxDbPath, tillDbFile, tillDbPath } from './data-files';

describe('data file names', () => {
  // Renaming one would leave a shop's existing data behind after an update.
  it('are the names existing shops already have on disk', () => {
    expect(SANDBOX_DB_FILE).toBe('sandbox-provider.sqlite');
    expect(tillDbFile('sandbox')).toBe('till-sandbox.sqlite');
    expect(tillDbFile('staging')).toBe('till-staging.sqlite');
    expect(tillDbFile('production')).toBe('till-production.sqlite');
  });

  it('live in the data directory', () => {
    expect(tillDbPath('/data', 'production')).toBe(join('/data', 'till-production.sqlite'));
    expect(sandboxDbPath('/data')).toBe(join('/data', 'sandbox-provider.sqlite'));
  });
});
