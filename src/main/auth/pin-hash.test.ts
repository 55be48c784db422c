import { describe, expect, it } from 'vitest';
import { hashPin, isPinHash, PIN_KDF, verifyPin } from './pin-hash';

/** Cheap parameters where the cost is not what is tested. */
const FAST = { ...PIN_KDF, N: 2 ** 10 };

describe('PIN hashing (scrypt)', () => {
  it('stores scrypt with its stated parameters, a 16-byte salt and a 32-byte key', async () => {
    const stored = await hashPin('482913');
    const match = /^scrypt\$N=32768,r=8,p=1\$([^$]+)\$([^$]+)$/.exec(stored);
    expect(match).not.toBeNull();
    expect(Buffer.from(match?.[1] ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(match?.[2] ?? '', 'base64')).toHaveLength(32);
    expect(stored).not.toContain('482913');
    expect(await verifyPin('482913', stored)).toBe(true);
  });

  it('salts every hash: the same PIN twice gives two different strings', async () => {
    const [a, b] = await Promise.all([hashPin('1234', FAST), hashPin('1234', FAST)]);
    expect(a).not.toBe(b);
    expect(await verifyPin('1234', a)).toBe(true);
    expect(await verifyPin('1234', b)).toBe(true);
  });

  it('refuses a wrong PIN, a near miss and an empty one', async () => {
    const stored = await hashPin('1234', FAST);
    for (const wrong of ['1235', '12345', '123', '', ' 1234', '4321']) {
      expect(await verifyPin(wrong, stored), wrong).toBe(false);
    }
  });

  it('reads the parameters back from the stored string', async () => {
    const stored = await hashPin('9999', FAST);
    expect(stored.startsWith('scrypt$N=1024,r=8,p=1$')).toBe(true);
    expect(await verifyPin('9999', stored)).toBe(true);
  });

  it('refuses stored strings it cannot trust (unknown format, absurd cost, short key)', async () => {
    const stored = await hashPin('1234', FAST);
    const [, , salt, key] = stored.split('$');
    for (const bad of [
      'plain-1234',
      `scrypt$N=1000,r=8,p=1$${salt}$${key}`, // not a power of two
      `scrypt$N=${2 ** 24},r=8,p=1$${salt}$${key}`, // would take gigabytes
      `scrypt$N=1024,r=8,p=1$${salt}$AAAA`, // a key too short to mean anything
    ]) {
      expect(isPinHash(bad), bad).toBe(false);
      await expect(verifyPin('1234', bad)).rejects.toMatchObject({ code: 'PIN_HASH_UNREADABLE' });
    }
    expect(isPinHash(stored)).toBe(true);
  });
});
