import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Caller } from '#shared/bridge/contract';
import { PIN_KDF } from './pin-hash';
import type { AuthError } from './auth-errors';
import { createRoles, OWNER_PIN_AT_HUB_MESSAGE } from './roles';
import { MAX_SESSIONS, OWNER_IDLE_MS, SESSION_IDLE_MS, type SessionRequest } from './sessions';

const FAST = { ...PIN_KDF, N: 2 ** 10 };

function setup(dataDir = mkdtempSync(join(tmpdir(), 'till-roles-'))) {
  const clock = { now: Date.UTC(2026, 10, 22, 9) };
  const shop = { cashiers: ['Ade', 'Bola'] as readonly string[], cashierPins: false };
  const open = () =>
    createRoles({
      dataDir,
      now: () => clock.now,
      cashiers: () => shop.cashiers,
      cashierPinsRequired: () => shop.cashierPins,
      kdf: FAST,
    });
  return { clock, shop, open, roles: open() };
}

const BOUND = 'browser:test';
function tab(sessionId: string | null = null): SessionRequest {
  return { sessionId, via: 'browser', boundTo: BOUND };
}

describe('roles: who a session is', () => {
  it('makes every session owner while no owner PIN is set (a one-person shop)', () => {
    const { roles } = setup();
    const caller = roles.callerFor(tab(), 'owner');
    expect(caller).toMatchObject({ role: 'owner', name: null, via: 'browser' });
    expect(caller.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(roles.view(caller)).toMatchObject({
      role: 'owner',
      ownerPinSet: false,
      ownerUntil: null,
    });
  });

  it('once an owner PIN is set, other sessions are signed out and the setter stays owner', async () => {
    const { roles, clock } = setup();
    const ownerTab = roles.callerFor(tab(), 'owner');
    const counterTab = roles.callerFor(tab(), 'cashier');
    await roles.setOwnerPin(ownerTab, '482913', undefined);
    expect(roles.callerFor(tab(ownerTab.sessionId), 'owner').role).toBe('owner');
    expect(roles.view(ownerTab).ownerUntil).toBe(clock.now + OWNER_IDLE_MS);
    expect(roles.callerFor(tab(counterTab.sessionId), 'cashier')).toMatchObject({
      role: 'cashier',
      name: null,
      sessionId: counterTab.sessionId,
    });
  });

  it('signs a cashier in by name (any case), records the name as written in Settings', async () => {
    const { roles } = setup();
    const owner = roles.callerFor(tab(), 'owner');
    await roles.setOwnerPin(owner, '482913', undefined);
    const counter = roles.callerFor(tab(), 'cashier');
    await roles.signIn(counter, '  ade ', undefined);
    expect(roles.callerFor(tab(counter.sessionId), 'cashier')).toMatchObject({
      role: 'cashier',
      name: 'Ade',
    });
    await expect(roles.signIn(counter, 'Chidi', undefined)).rejects.toMatchObject({
      code: 'UNKNOWN_CASHIER',
      field: 'name',
    });
    roles.signOut(counter);
    expect(roles.callerFor(tab(counter.sessionId), 'cashier').name).toBeNull();
  });

  it('signs out a cashier the owner removed from the list', async () => {
    const { roles, shop } = setup();
    await roles.setOwnerPin(roles.callerFor(tab(), 'owner'), '482913', undefined);
    const counter = roles.callerFor(tab(), 'cashier');
    await roles.signIn(counter, 'Bola', undefined);
    shop.cashiers = ['Ade'];
    expect(roles.callerFor(tab(counter.sessionId), 'cashier').name).toBeNull();
  });

  it('asks cashiers for their own PIN when the owner turns the option on', async () => {
    const { roles, shop } = setup();
    await roles.setOwnerPin(roles.callerFor(tab(), 'owner'), '482913', undefined);
    shop.cashierPins = true;
    const counter = roles.callerFor(tab(), 'cashier');
    await expect(roles.signIn(counter, 'Ade', undefined)).rejects.toMatchObject({
      code: 'PIN_REQUIRED',
    });
    await expect(roles.signIn(counter, 'Ade', '1111')).rejects.toMatchObject({
      code: 'PIN_NOT_SET',
    });
    await roles.setCashierPin('ade', '5566');
    expect(roles.view(counter).cashiers).toEqual([
      { name: 'Ade', pinSet: true },
      { name: 'Bola', pinSet: false },
    ]);
    await expect(roles.signIn(counter, 'Ade', '1111')).rejects.toMatchObject({
      code: 'WRONG_PIN',
    });
    await roles.signIn(counter, 'Ade', '5566');
    expect(roles.view(counter)).toMatchObject({ role: 'cashier', name: 'Ade' });
    await expect(roles.setCashierPin('Chidi', '1234')).rejects.toMatchObject({
      code: 'UNKNOWN_CASHIER',
    });
  });

  it('unlocks the owner for 15 minutes, renewed by each owner call, ended by Lock', async () => {
    const { roles, clock } = setup();
    const setter = roles.callerFor(tab(), 'owner');
    await roles.setOwnerPin(setter, '482913', undefined);
    roles.lock(setter);
    const counter = roles.callerFor(tab(), 'cashier');
    await roles.signIn(counter, 'Ade', undefined);
    await expect(roles.unlockOwner(counter, '000000')).rejects.toMatchObject({ code: 'WRONG_PIN' });
    await roles.unlockOwner(counter, '482913');
    const id = counter.sessionId;
    // The owner is still Ade's counter: sales made while unlocked keep her name.
    expect(roles.callerFor(tab(id), 'owner')).toMatchObject({ role: 'owner', name: 'Ade' });

    clock.now += OWNER_IDLE_MS - 1000;
    roles.callerFor(tab(id), 'cashier'); // a cashier call does not renew the unlock
    clock.now += 1000;
    expect(roles.callerFor(tab(id), 'owner')).toMatchObject({ role: 'cashier', name: 'Ade' });

    await roles.unlockOwner(counter, '482913');
    clock.now += OWNER_IDLE_MS - 1000;
    expect(roles.callerFor(tab(id), 'owner').role).toBe('owner'); // renews
    clock.now += OWNER_IDLE_MS - 1000;
    expect(roles.callerFor(tab(id), 'owner').role).toBe('owner');
    roles.lock(counter);
    expect(roles.callerFor(tab(id), 'owner')).toMatchObject({ role: 'cashier', name: 'Ade' });
  });

  it('needs the current PIN to change or remove it, and ends every other unlock', async () => {
    const { roles } = setup();
    const a = roles.callerFor(tab(), 'owner');
    await roles.setOwnerPin(a, '111111', undefined);
    const b = roles.callerFor(tab(), 'cashier');
    await roles.unlockOwner(b, '111111');
    await expect(roles.setOwnerPin(a, '222222', undefined)).rejects.toMatchObject({
      code: 'PIN_REQUIRED',
      field: 'currentPin',
    });
    await expect(roles.setOwnerPin(a, '222222', '999999')).rejects.toMatchObject({
      code: 'WRONG_PIN',
      field: 'currentPin',
    });
    await roles.setOwnerPin(a, '222222', '111111');
    expect(roles.callerFor(tab(b.sessionId), 'owner').role).toBe('cashier');
    expect(roles.callerFor(tab(a.sessionId), 'owner').role).toBe('owner');
    await expect(roles.removeOwnerPin(a, '111111')).rejects.toMatchObject({ code: 'WRONG_PIN' });
    await roles.removeOwnerPin(a, '222222');
    expect(roles.ownerPinSet()).toBe(false);
    expect(roles.callerFor(tab(b.sessionId), 'owner').role).toBe('owner');
  });

  it('keeps the PIN and its lock-out across a restart, but not the sessions', async () => {
    const { roles, open } = setup();
    const a = roles.callerFor(tab(), 'owner');
    await roles.setOwnerPin(a, '111111', undefined);
    for (let i = 0; i < 5; i++) await roles.unlockOwner(a, '000000').catch(() => undefined);
    const restarted = open();
    expect(restarted.ownerPinSet()).toBe(true);
    const again = restarted.callerFor(tab(a.sessionId), 'owner');
    expect(again.sessionId).not.toBe(a.sessionId);
    expect(again).toMatchObject({ role: 'cashier', name: null });
    await expect(restarted.unlockOwner(again, '111111')).rejects.toMatchObject({
      code: 'LOCKED_OUT',
    });
  });

  it('treats a paired counter as a cashier whatever the PIN', async () => {
    const { roles } = setup();
    const counter: SessionRequest = { sessionId: null, via: 'counter', boundTo: 'counter:1' };
    expect(roles.callerFor(counter, 'owner')).toMatchObject({ role: 'cashier', via: 'counter' });
    const caller = roles.callerFor(counter, 'cashier');
    await roles.setOwnerPin(roles.callerFor(tab(), 'owner'), '111111', undefined);
    // The owner PIN is refused at a counter outright: right or wrong, it is not even tried.
    await expect(roles.unlockOwner(caller, '111111')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: OWNER_PIN_AT_HUB_MESSAGE,
    });
    expect(roles.callerFor({ ...counter, sessionId: caller.sessionId }, 'owner')).toMatchObject({
      role: 'cashier',
    });
  });

  it('counts wrong PINs per device: no counter can lock the owner or a cashier out at the hub', async () => {
    const { roles, shop } = setup();
    shop.cashierPins = true;
    const hub = roles.callerFor(tab(), 'owner');
    await roles.setOwnerPin(hub, '111111', undefined);
    await roles.setCashierPin('Ade', '2468');
    const front = { id: 4, name: 'Front counter', tillId: 'till-frnt' };
    const atFront = roles.callerFor(
      { sessionId: null, via: 'counter', boundTo: 'counter:4', counter: front },
      'open',
    );
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      codes.push(
        await roles.unlockOwner(atFront, '000000').then(
          () => 'OK',
          (e: AuthError) => e.code,
        ),
      );
    }
    expect(new Set(codes)).toEqual(new Set(['FORBIDDEN']));
    for (let i = 0; i < 5; i++) {
      await roles.signIn(atFront, 'Ade', '0000').catch(() => undefined);
    }
    // Ade is locked out at the front counter...
    await expect(roles.signIn(atFront, 'Ade', '2468')).rejects.toMatchObject({
      code: 'LOCKED_OUT',
    });
    // ...and not at the hub, where the owner unlocks with the first right PIN too.
    const hubTab = roles.callerFor(tab(), 'open');
    await roles.signIn(hubTab, 'Ade', '2468');
    await roles.unlockOwner(hubTab, '111111');
    expect(roles.callerFor(tab(hubTab.sessionId), 'owner').role).toBe('owner');
    // A new tab at the hub is the same device: it buys no fresh tries.
    for (let i = 0; i < 5; i++) {
      await roles.unlockOwner(roles.callerFor(tab(), 'open'), '000000').catch(() => undefined);
    }
    await expect(roles.unlockOwner(roles.callerFor(tab(), 'open'), '111111')).rejects.toMatchObject(
      { code: 'LOCKED_OUT' },
    );
  });

  it('carries the paired counter of each request into the caller and the session view', async () => {
    const { roles } = setup();
    const front = { id: 4, name: 'Front counter', tillId: 'till-frnt' };
    const request: SessionRequest = {
      sessionId: null,
      via: 'counter',
      boundTo: 'counter:4',
      counter: front,
    };
    const caller = roles.callerFor(request, 'cashier');
    expect(caller).toMatchObject({ role: 'cashier', name: null, via: 'counter', counter: front });
    expect(roles.view(caller)).toMatchObject({ role: 'cashier', counter: front });
    // A cashier signs in at the counter: the sales record her name, the counter stays the counter.
    await roles.signIn(caller, 'Ade', undefined);
    const renamed = { ...front, name: 'Door counter', tillId: 'till-door' };
    const again = roles.callerFor(
      { ...request, sessionId: caller.sessionId, counter: renamed },
      'open',
    );
    // The counter comes from the request (the token, resolved now), never from the session.
    expect(again).toMatchObject({ name: 'Ade', sessionId: caller.sessionId, counter: renamed });
    expect(
      roles.viewerFor({ ...request, sessionId: caller.sessionId, counter: renamed }),
    ).toMatchObject({
      counter: renamed,
    });
    // The hub's own pages carry none, even if a request named one.
    const hubPage = roles.callerFor({ ...tab(), counter: front }, 'cashier');
    expect(hubPage.counter).toBeUndefined();
    expect(roles.view(hubPage).counter).toBeNull();
  });
});

describe('sessions', () => {
  it('binds a session to its token and its shell: another one gets a fresh session', () => {
    const { roles } = setup();
    const first = roles.callerFor(tab(), 'open');
    expect(roles.callerFor(tab(first.sessionId), 'open').sessionId).toBe(first.sessionId);
    const stolen = roles.callerFor(
      { sessionId: first.sessionId, via: 'browser', boundTo: 'browser:other-token' },
      'open',
    );
    expect(stolen.sessionId).not.toBe(first.sessionId);
    const asDesktop = roles.callerFor(
      { sessionId: first.sessionId, via: 'desktop', boundTo: BOUND },
      'open',
    );
    expect(asDesktop.sessionId).not.toBe(first.sessionId);
  });

  it('never adopts an id a page made up: it gets a random one', () => {
    const { roles } = setup();
    expect(roles.callerFor(tab('my-own-id'), 'open').sessionId).not.toBe('my-own-id');
    // A desktop window's id is its webContents: kept as given.
    const window: SessionRequest = { sessionId: 'desktop-3', via: 'desktop', boundTo: 'desktop' };
    expect(roles.callerFor(window, 'open').sessionId).toBe('desktop-3');
  });

  it('forgets a session left idle for 12 hours, and keeps at most 500', async () => {
    const { roles, clock } = setup();
    await roles.setOwnerPin(roles.callerFor(tab(), 'owner'), '111111', undefined);
    const counter = roles.callerFor(tab(), 'cashier');
    await roles.signIn(counter, 'Ade', undefined);
    clock.now += SESSION_IDLE_MS;
    expect(roles.callerFor(tab(counter.sessionId), 'cashier').name).toBeNull();

    const first = roles.callerFor(tab(), 'open');
    for (let i = 0; i < MAX_SESSIONS; i++) roles.callerFor(tab(), 'open');
    expect(roles.callerFor(tab(first.sessionId), 'open').sessionId).not.toBe(first.sessionId);
  });

  it('lets an event stream look without making a session', () => {
    const { roles } = setup();
    const viewer: Caller = roles.viewerFor(tab('never-seen'));
    expect(viewer).toMatchObject({ role: 'owner', name: null, sessionId: 'never-seen' });
    expect(roles.callerFor(tab('never-seen'), 'open').sessionId).not.toBe('never-seen');
  });
});
