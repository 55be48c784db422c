/**
 * A key saved on a full disk: the real secret store and its real file, with the one write it
 * makes (writeFileAtomic) answering ENOSPC while `full` (injected at the file's edge: a truly
 * full disk cannot be made safely on a shared machine).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as AtomicWrite from './atomic-write';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('./atomic-write', async (real) => {
  const actual = await real<typeof AtomicWrite>();
  return {
    ...actual,
    writeFileAtomic: (...args: Parameters<typeof actual.writeFileAtomic>) => {
      if (disk.full) {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        });
      }
      actual.writeFileAtomic(...args);
    },
  };
});

const { createRedactor } = await import('#main/logging/redact');
const { createFileSecretBox } = await import('./file-secret-box');
const { SECRETS_FILE, createSecretStore } = await import('./secret-store');

const dirs: string[] = [];
afterEach(() => {
  disk.full = false;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a key saved on a full disk', () => {
  it('is refused as a full disk (DISK_FULL), and the key saved before stays', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-secrets-full-'));
    dirs.push(dir);
    const secrets = createSecretStore({
      dataDir: dir,
      box: createFileSecretBox(dir),
      redactor: createRedactor(),
    });
    secrets.set('global', 'ngrokAuthtoken', '2abcdefghijklmnopqrstuvwxyz_first');
    const before = readFileSync(join(dir, SECRETS_FILE), 'utf8');
    disk.full = true;
    expect(() =>
      secrets.set('global', 'ngrokAuthtoken', '2abcdefghijklmnopqrstuvwxyz_second'),
    ).toThrow(
      expect.objectContaining({
        code: 'DISK_FULL',
        message:
          'The disk is full: the keys were not changed. Free some space on this computer, then try again.',
      }),
    );
    expect(secrets.get('global', 'ngrokAuthtoken')).toBe('2abcdefghijklmnopqrstuvwxyz_first');
    expect(readFileSync(join(dir, SECRETS_FILE), 'utf8')).toBe(before);
  });
});
