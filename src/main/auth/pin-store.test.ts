import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIN_KDF } from './pin-hash';
import { cashierSubject, OWNER, openPinStore, PINS_FILE } from './pin-store';

const MIN = 60_000;
const FAST = { ...PIN_KDF, N: 2 ** 10 };

/**
 * The till's clock (`now`, which --dev-clock moves) and the monotonic one lock-outs count on;
 * real time passing moves both (`pass`).
 */
function setup(dataDir = mkdtempSync(join(tmpdir(), 'till-pins-'))) {
  const clock = {
    now: Date.UTC(2026, 10, 22, 9),
    monotonic: 5_000,
    pass(ms: number) {
      clock.now += ms;
      clock.monotonic += ms;
    },
  };
  const open = () =>
    openPinStore({ dataDir, now: () => clock.now, monotonic: () => clock.monotonic, kdf: FAST });
  return { dataDir, clock, open, store: open() };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return (error as { code?: string }).code ?? 'NO_CODE';
  }
}

describe('the PIN store', () => {
  it('keeps a salted hash in pins.json (0600), never the PIN', async () => {
    const { store, dataDir } = setup();
    expect(store.isSet(OWNER)).toBe(false);
    await store.set(OWNER, '482913');
    await store.set(cashierSubject('Ade'), '5566');
    expect(store.isSet(OWNER)).toBe(true);
    expect(store.isSet(cashierSubject('ade'))).toBe(true); // names compare without case
    const text = readFileSync(join(dataDir, PINS_FILE), 'utf8');
    expect(text).not.toContain('482913');
    expect(text).not.toContain('5566');
    expect(text).toMatch(/"owner": "scrypt\$N=1024,r=8,p=1\$/);
    if (process.platform !== 'win32') {
      expect(statSync(join(dataDir, PINS_FILE)).mode & 0o777).toBe(0o600);
    }
    expect(await codeOf(store.verify(OWNER, '482913'))).toBe('OK');
    expect(await codeOf(store.verify(cashierSubject('ADE'), '5566'))).toBe('OK');
  });

  it('refuses a wrong PIN and a PIN that is not set', async () => {
    const { store } = setup();
    await store.set(OWNER, '1234');
    expect(await codeOf(store.verify(OWNER, '9999'))).toBe('WRONG_PIN');
    expect(await codeOf(store.verify(cashierSubject('Bola'), '1234'))).toBe('PIN_NOT_SET');
  });

  it('locks after five wrong PINs, refuses even the right one while locked, then lets it in', async () => {
    const { store, clock } = setup();
    await store.set(OWNER, '1234');
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push(await codeOf(store.verify(OWNER, '0000')));
    expect(codes).toEqual(['WRONG_PIN', 'WRONG_PIN', 'WRONG_PIN', 'WRONG_PIN', 'LOCKED_OUT']);
    expect(store.lockedUntil(OWNER)).toBe(clock.now + MIN);
    await expect(store.verify(OWNER, '1234')).rejects.toMatchObject({
      code: 'LOCKED_OUT',
      message: expect.stringContaining('Try again in 1 minute') as unknown,
    });
    clock.pass(MIN);
    expect(store.lockedUntil(OWNER)).toBeNull();
    expect(await codeOf(store.verify(OWNER, '1234'))).toBe('OK');
    // The right PIN starts the count again.
    for (let i = 0; i < 4; i++) expect(await codeOf(store.verify(OWNER, '0000'))).toBe('WRONG_PIN');
  });

  it('makes each lock-out after the first longer: 5, 15, then 60 minutes', async () => {
    const { store, clock } = setup();
    await store.set(OWNER, '1234');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(OWNER, '0000'));
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      clock.pass((store.lockedUntil(OWNER) ?? clock.now) - clock.now);
      expect(await codeOf(store.verify(OWNER, '0000'))).toBe('LOCKED_OUT');
      waits.push(((store.lockedUntil(OWNER) ?? 0) - clock.now) / MIN);
    }
    expect(waits).toEqual([5, 15, 60, 60]);
  });

  it('keeps the lock-out across a restart', async () => {
    const { store, open, clock } = setup();
    await store.set(OWNER, '1234');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(OWNER, '0000'));
    const reopened = open();
    expect(reopened.lockedUntil(OWNER)).toBe(clock.now + MIN);
    expect(await codeOf(reopened.verify(OWNER, '1234'))).toBe('LOCKED_OUT');
    // Three wrong tries, a restart, two more: still five in a row.
    clock.pass(MIN);
    expect(await codeOf(reopened.verify(OWNER, '1234'))).toBe('OK');
    for (let i = 0; i < 3; i++) await codeOf(reopened.verify(OWNER, '0000'));
    const again = open();
    expect(await codeOf(again.verify(OWNER, '0000'))).toBe('WRONG_PIN');
    expect(await codeOf(again.verify(OWNER, '0000'))).toBe('LOCKED_OUT');
  });

  it('counts a lock-out in real time: moving the till’s clock (--dev-clock) does not end it', async () => {
    const { store, clock } = setup();
    await store.set(OWNER, '1234');
    // The fifth wrong PIN locks for a minute (a sixth is refused unchecked); the till's clock
    // then jumps two hours.
    for (let i = 0; i < 6; i++) await codeOf(store.verify(OWNER, '0000'));
    clock.now += 2 * 60 * MIN;
    expect(store.lockedUntil(OWNER)).toBe(clock.now + MIN);
    expect(await codeOf(store.verify(OWNER, '1234'))).toBe('LOCKED_OUT');
    clock.monotonic += MIN - 1;
    expect(await codeOf(store.verify(OWNER, '1234'))).toBe('LOCKED_OUT');
    clock.monotonic += 1;
    expect(await codeOf(store.verify(OWNER, '1234'))).toBe('OK');
  });

  it('keeps what is left of a lock-out across a restart, whose monotonic clock starts afresh', async () => {
    const { store, open, clock } = setup();
    await store.set(OWNER, '1234');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(OWNER, '0000'));
    clock.pass(20_000);
    clock.monotonic = 0;
    const reopened = open();
    expect(reopened.lockedUntil(OWNER)).toBe(clock.now + 40_000);
    clock.pass(39_999);
    expect(await codeOf(reopened.verify(OWNER, '1234'))).toBe('LOCKED_OUT');
    clock.pass(1);
    expect(await codeOf(reopened.verify(OWNER, '1234'))).toBe('OK');
  });

  it('keeps each lock-out to its own PIN: a locked cashier does not lock the owner', async () => {
    const { store } = setup();
    await store.set(OWNER, '1234');
    await store.set(cashierSubject('Ade'), '5678');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(cashierSubject('Ade'), '0000'));
    expect(await codeOf(store.verify(cashierSubject('Ade'), '5678'))).toBe('LOCKED_OUT');
    expect(await codeOf(store.verify(OWNER, '1234'))).toBe('OK');
  });

  it('counts parallel guesses one at a time: ten at once still lock at the fifth', async () => {
    const { store } = setup();
    await store.set(OWNER, '1234');
    const guesses = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '1234'].map((pin) =>
      codeOf(store.verify(OWNER, pin)),
    );
    const codes = await Promise.all(guesses);
    expect(codes.filter((code) => code === 'WRONG_PIN')).toHaveLength(4);
    // The right PIN came after the lock: refused like every later guess.
    expect(codes.slice(4)).toEqual(Array(6).fill('LOCKED_OUT'));
  });

  it('removing or changing a PIN clears its lock-out', async () => {
    const { store } = setup();
    await store.set(OWNER, '1234');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(OWNER, '0000'));
    await store.set(OWNER, '4321');
    expect(await codeOf(store.verify(OWNER, '4321'))).toBe('OK');
    await store.set(OWNER, null);
    expect(store.isSet(OWNER)).toBe(false);
  });

  it('moves a damaged file aside and says so, rather than failing to start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-pins-'));
    writeFileSync(join(dataDir, PINS_FILE), '{"format":1,"pins":{"owner":"1234"}');
    const { store } = setup(dataDir);
    expect(store.isSet(OWNER)).toBe(false);
    expect(store.recovery?.message).toContain('set the owner PIN');
    expect(readdirSync(dataDir).some((name) => name.startsWith(`${PINS_FILE}.invalid-`))).toBe(
      true,
    );
  });

  it('refuses a file whose hash is not a hash (a PIN typed into the file by hand)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-pins-'));
    writeFileSync(
      join(dataDir, PINS_FILE),
      JSON.stringify({ format: 1, pins: { owner: '1234' }, lockouts: {} }),
    );
    const { store } = setup(dataDir);
    expect(store.isSet(OWNER)).toBe(false);
    expect(store.recovery).not.toBeNull();
  });

  it('counts wrong PINs per device, and a new PIN starts every count afresh', async () => {
    const { store, open } = setup();
    await store.set(OWNER, '1234');
    for (let i = 0; i < 5; i++) await codeOf(store.verify(OWNER, '0000', 'counter:7'));
    expect(await codeOf(store.verify(OWNER, '1234', 'counter:7'))).toBe('LOCKED_OUT');
    expect(store.lockedUntil(OWNER, 'counter:7')).not.toBeNull();
    // The hub and another counter are untouched, also after a restart.
    expect(store.lockedUntil(OWNER)).toBeNull();
    expect(await codeOf(open().verify(OWNER, '1234'))).toBe('OK');
    expect(await codeOf(open().verify(OWNER, '1234', 'counter:8'))).toBe('OK');
    expect(open().lockedUntil(OWNER, 'counter:7')).not.toBeNull();
    await store.set(OWNER, '5678');
    expect(store.lockedUntil(OWNER, 'counter:7')).toBeNull();
  });
});
