import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAN_PORT, PAIRING_TTL_MS, type LanListenerView } from '#shared/hub';
import type { Db } from '#main/store/database';
import { createRedactor, REDACTED, type Redactor } from '#main/logging/redact';
import { getPairedCounter } from '#main/store/paired-counters-repo';
import { createTestDb } from '#support/database';
import { CONTACT_WRITE_MS, createHub, type CoreHub } from './hub';
import type { LanControl } from './hub-types';

const HUB_TILL = 'till-hub1';
const FINGERPRINT = 'AB:'.repeat(31) + 'AB';
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function setup(random?: (size: number) => Uint8Array) {
  const { db, path } = createTestDb();
  opened.push(db);
  const clock = { now: Date.UTC(2026, 10, 22, 9) };
  const shop = { tillId: HUB_TILL };
  const redactor = createRedactor();
  const hubOn = (theDb: Db, logRedactor: Redactor) =>
    createHub({
      db: () => theDb,
      now: () => clock.now,
      hubTillId: () => shop.tillId,
      logger: pino({ level: 'silent' }),
      redactor: logRedactor,
      ...(random ? { random } : {}),
    });
  const hub: CoreHub = hubOn(db, redactor);
  return { db, path, clock, shop, hub, redactor, hubOn };
}

/**
 * The shell's LAN listener as the hub sees it (the real one needs a TLS port and the renderer
 * bundle; it is tested with the shell): its view, its links and its open streams.
 */
function lanControl(running = true) {
  const state = { running, connected: new Set<number>(), enabledCalls: [] as boolean[] };
  const view = (): LanListenerView => ({
    enabled: state.running,
    running: state.running,
    url: state.running ? 'https://192.168.1.20:7443/' : null,
    port: DEFAULT_LAN_PORT,
    fingerprint: state.running ? FINGERPRINT : null,
    problem: null,
    addresses: [],
    setForThisRun: false,
  });
  const control: LanControl = {
    view,
    setEnabled(enabled) {
      state.enabledCalls.push(enabled);
      state.running = enabled;
      return Promise.resolve(view());
    },
    pairingUrl: (code) =>
      `https://192.168.1.20:7443/#/pair&code=${code}&fp=${FINGERPRINT.replace(/:/g, '')}`,
    connectedCounterIds: () => state.connected,
    moveTo: () => Promise.resolve(null),
  };
  return { control, state };
}

function codeOf(url: string): string {
  return /code=([^&]+)/.exec(url)?.[1] ?? '';
}

function refusal(run: () => unknown): { code: string; field?: string; message: string } {
  try {
    run();
  } catch (error) {
    const { code, field, message } = error as { code: string; field?: string; message: string };
    return { code, message, ...(field === undefined ? {} : { field }) };
  }
  throw new Error('expected a refusal');
}

/** Pairs a counter through a fresh link, as the LAN listener does for POST /api/pair. */
function pairNew(hub: CoreHub, name: string) {
  return hub.pair(codeOf(hub.createPairingLink(name).url));
}

describe('the hub: LAN listener and pairing links', () => {
  it('is unavailable until a shell attaches a LAN listener, and makes no link while it is off', async () => {
    const { hub } = setup();
    expect(hub.view()).toEqual({
      available: false,
      lan: {
        enabled: false,
        running: false,
        url: null,
        port: DEFAULT_LAN_PORT,
        fingerprint: null,
        problem: null,
        addresses: [],
        setForThisRun: false,
      },
      counters: [],
    });
    expect(refusal(() => hub.createPairingLink('Front'))).toMatchObject({ code: 'HUB_LAN_OFF' });
    await expect(hub.setLanEnabled(true)).rejects.toMatchObject({ code: 'HUB_UNAVAILABLE' });

    const { control, state } = lanControl(false);
    hub.attachLan(control);
    expect(hub.view()).toMatchObject({ available: true, lan: { running: false } });
    expect(refusal(() => hub.createPairingLink('Front'))).toEqual({
      code: 'HUB_LAN_OFF',
      message: 'Turn on the LAN listener first: counters reach the hub through it.',
    });
    await hub.setLanEnabled(true);
    expect(state.enabledCalls).toEqual([true]);
    const link = hub.createPairingLink('  Front counter ');
    expect(link).toMatchObject({ name: 'Front counter', fingerprint: FINGERPRINT });
    expect(link.url).toMatch(/^https:\/\/192\.168\.1\.20:7443\/#\/pair&code=[\w-]{22}&fp=/);
  });

  it('pairs a counter once per link: its own till id and a token shown once', () => {
    const { hub, clock } = setup();
    hub.attachLan(lanControl().control);
    const link = hub.createPairingLink('Front counter');
    expect(link.expiresAt).toBe(clock.now + PAIRING_TTL_MS);
    const paired = hub.pair(codeOf(link.url));
    expect(paired.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Object.keys(paired.counter).sort()).toEqual(['id', 'name', 'tillId']);
    expect(paired.counter.name).toBe('Front counter');
    expect(paired.counter.tillId).toMatch(/^till-[0-9a-hjkmnp-tv-z]{4}$/);
    expect(paired.counter.tillId).not.toBe(HUB_TILL);
    expect(refusal(() => hub.pair(codeOf(link.url)))).toMatchObject({ code: 'PAIRING_USED' });
    expect(hub.view().counters.map((counter) => counter.name)).toEqual(['Front counter']);
  });

  it('refuses an expired link and one it never made, and pairs nothing for them', () => {
    const { hub, clock } = setup();
    hub.attachLan(lanControl().control);
    const link = hub.createPairingLink('Front counter');
    clock.now += PAIRING_TTL_MS;
    expect(refusal(() => hub.pair(codeOf(link.url)))).toMatchObject({ code: 'PAIRING_EXPIRED' });
    expect(refusal(() => hub.pair(randomBytes(16).toString('base64url')))).toMatchObject({
      code: 'PAIRING_UNKNOWN',
    });
    expect(refusal(() => hub.pair("'; DROP TABLE paired_counters; --"))).toMatchObject({
      code: 'PAIRING_UNKNOWN',
    });
    expect(hub.view().counters).toEqual([]);
  });

  it('gives each counter a till id no till of the shop has had', () => {
    // The first till id drawn is the hub's own (till-0000 here), the second one is free.
    const tillBytes = [new Uint8Array(4), new Uint8Array([1, 1, 1, 1])];
    const random = (size: number) =>
      size === 4
        ? (tillBytes.shift() ?? new Uint8Array(randomBytes(4)))
        : new Uint8Array(randomBytes(size));
    const { hub, shop } = setup(random);
    shop.tillId = 'TILL-0000';
    hub.attachLan(lanControl().control);
    expect(pairNew(hub, 'Front').counter.tillId).toBe('till-1111');
  });
});

describe('the hub: tokens, till ids and revoking', () => {
  it('keeps only the SHA-256 of a token: the database file never holds the token', () => {
    const { hub, db, path } = setup();
    hub.attachLan(lanControl().control);
    const { token, counter } = pairNew(hub, 'Front');
    expect(hub.resolveToken(token)).toEqual({ kind: 'counter', counter });
    db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(path);
    expect(file.includes(Buffer.from(token))).toBe(false);
    expect(hub.resolveToken(randomBytes(16).toString('base64url'))).toEqual({ kind: 'unknown' });
    expect(hub.resolveToken('')).toEqual({ kind: 'unknown' });
  });

  it('refuses a revoked counter at once, tells the listener once, and keeps it listed', () => {
    const { hub, clock } = setup();
    const { control, state } = lanControl();
    hub.attachLan(control);
    const front = pairNew(hub, 'Front');
    const back = pairNew(hub, 'Back');
    state.connected.add(front.counter.id).add(back.counter.id);
    const told: number[] = [];
    const stop = hub.onRevoked((id) => told.push(id));

    clock.now += 1_000;
    hub.revoke(front.counter.id);
    expect(hub.resolveToken(front.token)).toEqual({ kind: 'revoked', counterId: front.counter.id });
    expect(hub.resolveToken(back.token)).toMatchObject({ kind: 'counter' });
    expect(hub.current(front.counter.id)).toBeNull();
    hub.revoke(front.counter.id); // idempotent: nothing new to tell
    expect(told).toEqual([front.counter.id]);
    stop();
    hub.revoke(back.counter.id);
    expect(told).toEqual([front.counter.id]);

    const listed = hub.view().counters;
    expect(listed.map((counter) => [counter.name, counter.revokedAt, counter.connected])).toEqual([
      ['Back', clock.now, false],
      ['Front', clock.now, false],
    ]);
    expect(refusal(() => hub.revoke(999))).toMatchObject({
      code: 'COUNTER_NOT_FOUND',
      field: 'counterId',
    });
    expect(refusal(() => hub.update(front.counter.id, { name: 'Again' }))).toMatchObject({
      code: 'COUNTER_REVOKED',
    });
  });

  it("keeps till ids unique in the shop (by reference prefix), and frees a revoked counter's", () => {
    const { hub } = setup();
    hub.attachLan(lanControl().control);
    const front = pairNew(hub, 'Front').counter;
    const back = pairNew(hub, 'Back').counter;

    hub.update(front.id, { name: 'Door counter', tillId: 'till-door' });
    expect(hub.current(front.id)).toEqual({
      id: front.id,
      name: 'Door counter',
      tillId: 'till-door',
    });
    // 'TILLDOOR' is the same prefix as 'till-door': the report could not tell the two apart.
    expect(refusal(() => hub.update(back.id, { tillId: 'TILLDOOR' }))).toEqual({
      code: 'TILL_ID_TAKEN',
      field: 'tillId',
      message: 'Door counter is till till-door already: each till of the shop needs its own id.',
    });
    expect(refusal(() => hub.update(back.id, { tillId: 'till-hub1' }))).toEqual({
      code: 'TILL_ID_TAKEN',
      field: 'tillId',
      message: 'The hub itself is till till-hub1: each till of the shop needs its own id.',
    });
    expect(refusal(() => hub.update(back.id, { tillId: 'till_back' }))).toMatchObject({
      code: 'TILL_ID_INVALID',
      field: 'tillId',
    });
    expect(refusal(() => hub.update(back.id, { name: ' ' }))).toMatchObject({
      code: 'COUNTER_NAME_INVALID',
      field: 'name',
    });
    // Its own id again is no change.
    hub.update(front.id, { tillId: 'till-door' });
    hub.revoke(front.id);
    hub.update(back.id, { tillId: 'till-door' });
    expect(hub.current(back.id)?.tillId).toBe('till-door');
  });

  it('shows the last contact at once and writes it at most every 30 seconds', () => {
    const { hub, db, clock } = setup();
    const { control, state } = lanControl();
    hub.attachLan(control);
    const { counter } = pairNew(hub, 'Front');
    const pairedAt = clock.now;
    const written = () => getPairedCounter(db, counter.id)?.lastContactAt;

    hub.touch(counter.id);
    expect(written()).toBe(pairedAt);
    clock.now += 10_000;
    hub.touch(counter.id);
    expect(written()).toBe(pairedAt);
    state.connected.add(counter.id);
    expect(hub.view().counters[0]).toMatchObject({ lastContactAt: clock.now, connected: true });
    clock.now += CONTACT_WRITE_MS - 10_000;
    hub.touch(counter.id);
    expect(written()).toBe(clock.now);
    clock.now += 5_000;
    hub.touch(counter.id);
    expect(written()).toBe(clock.now - 5_000);
    // Before the database closes, the newest contact is written.
    hub.flush();
    expect(written()).toBe(clock.now);
  });
});

describe('the hub and the log', () => {
  it('registers every pairing code and counter token with the redactor the moment it exists', () => {
    const { hub, redactor, db, hubOn } = setup();
    hub.attachLan(lanControl().control);
    const link = hub.createPairingLink('Front counter');
    const code = /code=([^&]+)/.exec(link.url)?.[1] ?? '';
    expect(redactor.redactText(`code ${code}`)).toBe(`code ${REDACTED}`);
    const { token } = hub.pair(code);
    expect(redactor.redactText(`token ${token}`)).toBe(`token ${REDACTED}`);
    // After a restart the hub knows the token by its hash only: the log asks the registry about
    // any token-shaped stretch of a line, even one hidden inside a longer run.
    const restarted = createRedactor();
    const again = hubOn(db, restarted);
    expect(restarted.redactText(`token ${token}.`)).toBe(`token ${REDACTED}.`);
    expect(restarted.redactText(`xx${token}yy`)).toBe(`xx${REDACTED}yy`);
    expect(again.resolveToken(token).kind).toBe('counter');
    expect(restarted.redactText(token)).toBe(REDACTED);
    // A made-up token is neither registered nor recognised: a counter cannot make the log scrub
    // ordinary words.
    const madeUp = 'ordinaryWordsInALogLin';
    expect(again.resolveToken(madeUp).kind).toBe('unknown');
    expect(restarted.redactText(madeUp)).toBe(madeUp);
    // The price of asking: a render error's longest stack, one token-shaped run end to end.
    const longRun = `${'A'.repeat(3_990)}${token}`;
    const started = performance.now();
    expect(restarted.redactText(longRun)).toBe(`${'A'.repeat(3_990)}${REDACTED}`);
    const ms = performance.now() - started;
    console.info(`a 4,012-character token-shaped run redacted in ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(1_000);
  });
});
