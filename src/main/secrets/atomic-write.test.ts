import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAtomicTempName, writeFileAtomic } from './atomic-write';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tt-atomic-'));
  dirs.push(dir);
  return dir;
}

describe('writeFileAtomic', () => {
  it('replaces the file by rename (a new inode), with mode 0600 and no leftovers', () => {
    const dir = tempDir();
    const path = join(dir, 'secrets.json');
    writeFileSync(path, 'old');
    const before = statSync(path).ino;
    writeFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).ino).not.toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('writes a large buffer whole', () => {
    const path = join(tempDir(), 'big.bin');
    const data = Buffer.alloc(3 * 1024 * 1024, 7);
    writeFileAtomic(path, data);
    expect(readFileSync(path).equals(data)).toBe(true);
  });

  it('removes its temporary file and throws when the rename fails', () => {
    const dir = tempDir();
    const path = join(dir, 'secrets.json');
    // A non-empty folder in the way: rename cannot replace it.
    mkdirSync(path);
    writeFileSync(join(path, 'keep'), 'x');
    expect(() => writeFileAtomic(path, 'new')).toThrow();
    expect(readdirSync(dir)).toEqual(['secrets.json']);
    expect(readFileSync(join(path, 'keep'), 'utf8')).toBe('x');
  });

  it('names its temporary files recognisably', () => {
    expect(isAtomicTempName('.secrets.json.123.abcdef.tmp', 'secrets.json')).toBe(true);
    expect(isAtomicTempName('secrets.json', 'secrets.json')).toBe(false);
    expect(isAtomicTempName('.settings.json.1.a.tmp', 'secrets.json')).toBe(false);
  });
});
