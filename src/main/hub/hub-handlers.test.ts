import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller, Handlers } from '#shared/bridge/contract';
import { DEFAULT_LAN_PORT, type HubView } from '#shared/hub';
import { IN_PROCESS_OWNER } from '#main/auth/caller';
import { dispatch } from '#main/bridge/dispatch';
import { createHub } from './hub';
import type { Db } from '#main/store/database';
import { createTestDb } from '#support/database';
import { createRedactor } from '#main/logging/redact';
import { hubHandlers } from './hub-handlers';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function setup() {
  const { db } = createTestDb();
  opened.push(db);
  const hub = createHub({
    db: () => db,
    now: () => Date.UTC(2026, 10, 22, 9),
    hubTillId: () => 'till-hub1',
    logger: pino({ level: 'silent' }),
    redactor: createRedactor(),
  });
  const handlers = hubHandlers({ hub }) as Handlers;
  // The real dispatch: access levels, input schemas and coded errors as the shells see them.
  const call = (channel: string, input: unknown, who: Caller = IN_PROCESS_OWNER) =>
    dispatch(handlers, channel, input, () => undefined, who);
  return { hub, call };
}

describe('hub handlers (the Counters screen)', () => {
  it('answer in words when this shell has no LAN listener', async () => {
    const { call } = setup();
    expect(await call('getHub', {})).toMatchObject({ ok: true, value: { available: false } });
    expect(await call('setLanListener', { enabled: true })).toMatchObject({
      ok: false,
      error: { code: 'HUB_UNAVAILABLE' },
    });
    expect(await call('createPairingLink', { name: 'Front' })).toEqual({
      ok: false,
      error: {
        code: 'HUB_LAN_OFF',
        message: 'Turn on the LAN listener first: counters reach the hub through it.',
      },
    });
  });

  it('turn the listener on, pair, rename and revoke, each answering with the hub as it is', async () => {
    const { hub, call } = setup();
    let running = false;
    hub.attachLan({
      view: () => ({
        enabled: running,
        running,
        url: running ? 'https://127.0.0.1:7443/' : null,
        port: DEFAULT_LAN_PORT,
        fingerprint: running ? 'AB:CD' : null,
        problem: null,
        addresses: [],
        setForThisRun: false,
      }),
      setEnabled(enabled) {
        running = enabled;
        return Promise.resolve(this.view());
      },
      pairingUrl: (code) => `https://127.0.0.1:7443/#/pair&code=${code}&fp=ABCD`,
      connectedCounterIds: () => new Set(),
      moveTo: () => Promise.resolve(null),
    });
    expect(await call('setLanListener', { enabled: true })).toMatchObject({
      ok: true,
      value: { available: true, lan: { running: true } },
    });
    const link = await call('createPairingLink', { name: 'Front counter' });
    if (!link.ok) throw new Error(link.error.message);
    const { url } = link.value as { url: string };
    const { counter } = hub.pair(/code=([^&]+)/.exec(url)?.[1] ?? '');

    const renamed = await call('updateCounter', { counterId: counter.id, name: 'Door counter' });
    expect(renamed.ok && (renamed.value as HubView).counters[0]?.name).toBe('Door counter');
    expect(await call('updateCounter', { counterId: counter.id, tillId: 'till-hub1' })).toEqual({
      ok: false,
      error: {
        code: 'TILL_ID_TAKEN',
        field: 'tillId',
        message: 'The hub itself is till till-hub1: each till of the shop needs its own id.',
      },
    });
    const revoked = await call('revokeCounter', { counterId: counter.id });
    expect(revoked.ok && (revoked.value as HubView).counters[0]?.revokedAt).toEqual(
      expect.any(Number),
    );
    expect(await call('revokeCounter', { counterId: counter.id + 1 })).toMatchObject({
      ok: false,
      error: { code: 'COUNTER_NOT_FOUND', field: 'counterId' },
    });
  });
});
