import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_BOX_KEY_FILE, createFileSecretBox } from './file-secret-box';
import { SecretBoxError, type SecretBoxErrorCode } from './secret-box';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-box-'));
  dirs.push(dir);
  return dir;
}

function boxError(run: () => unknown): SecretBoxErrorCode {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretBoxError) return error.code;
    throw error;
  }
  throw new Error('expected a SecretBoxError');
}

const SECRET = 'sk_live_Abc123-ñ-₦-ok';

describe('file secret box', () => {
  it('round-trips text, with a fresh IV each time', () => {
    const box = createFileSecretBox(tempDir());
    const a = box.encrypt(SECRET);
    const b = box.encrypt(SECRET);
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from(SECRET))).toBe(false);
    expect(box.decrypt(a)).toBe(SECRET);
    expect(box.decrypt(b)).toBe(SECRET);
  });

  it('says plainly what it is', () => {
    const dir = tempDir();
    const box = createFileSecretBox(dir);
    expect(box.kind).toBe('file-key');
    expect(box.description).toMatch(/anyone who can read the data folder can read the secrets/);
    expect(box.description).toContain(join(dir, SECRET_BOX_KEY_FILE));
  });

  it('creates a 256-bit key once, mode 0600, and reuses it', () => {
    const dir = tempDir();
    const first = createFileSecretBox(dir);
    const keyPath = join(dir, SECRET_BOX_KEY_FILE);
    const key = readFileSync(keyPath);
    expect(key).toHaveLength(32);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const second = createFileSecretBox(dir);
    expect(readFileSync(keyPath).equals(key)).toBe(true);
    expect(second.decrypt(first.encrypt(SECRET))).toBe(SECRET);
  });

  it('refuses a tampered ciphertext with a typed error, never garbage', () => {
    const box = createFileSecretBox(tempDir());
    const cipher = box.encrypt(SECRET);
    for (const at of [1, 14, cipher.length - 1]) {
      const changed = Buffer.from(cipher);
      changed[at] = (changed[at] ?? 0) ^ 0x01;
      expect(boxError(() => box.decrypt(changed))).toBe('DECRYPT_FAILED');
    }
  });

  it('refuses a ciphertext made with another key', () => {
    const cipher = createFileSecretBox(tempDir()).encrypt(SECRET);
    expect(boxError(() => createFileSecretBox(tempDir()).decrypt(cipher))).toBe('DECRYPT_FAILED');
  });

  it('refuses something it did not write', () => {
    const box = createFileSecretBox(tempDir());
    expect(boxError(() => box.decrypt(Buffer.alloc(0)))).toBe('CIPHERTEXT_MALFORMED');
    expect(boxError(() => box.decrypt(Buffer.from('plain text that is long enough')))).toBe(
      'CIPHERTEXT_MALFORMED',
    );
  });

  it('refuses a damaged key file instead of making a new key over it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, SECRET_BOX_KEY_FILE), 'short');
    expect(boxError(() => createFileSecretBox(dir))).toBe('KEY_INVALID');
    expect(readFileSync(join(dir, SECRET_BOX_KEY_FILE), 'utf8')).toBe('short');
  });
});
