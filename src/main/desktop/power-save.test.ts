import { describe, expect, it } from 'vitest';
import { createPowerSaveController, powerSaveAction, type PowerSaveBlockerApi } from './power-save';

describe('powerSaveAction', () => {
  it.each([
    [false, 0, null],
    [false, 1, 'start'],
    [true, 3, null],
    [true, 0, 'stop'],
  ] as const)('blocking=%s with %i open sales: %s', (blocking, open, action) => {
    expect(powerSaveAction(blocking, open)).toBe(action);
  });
});

/** Electron's powerSaveBlocker at the edge: ids handed out, and which are running. */
function fakeBlocker() {
  const running = new Set<number>();
  const calls: string[] = [];
  let next = 1;
  const api: PowerSaveBlockerApi = {
    start(type) {
      calls.push(`start ${type}`);
      running.add(next);
      return next++;
    },
    stop(id) {
      calls.push(`stop ${id}`);
      running.delete(id);
    },
    isStarted: (id) => running.has(id),
  };
  return { api, calls, running };
}

describe('createPowerSaveController', () => {
  it('blocks app suspension from the first open sale to the last, once', () => {
    const { api, calls } = fakeBlocker();
    const power = createPowerSaveController(api);
    power.update(0);
    power.update(1);
    power.update(2);
    expect(power.blocking()).toBe(true);
    power.update(1);
    power.update(0);
    power.update(0);
    expect(power.blocking()).toBe(false);
    expect(calls).toEqual(['start prevent-app-suspension', 'stop 1']);
  });

  it('starts again when the OS ended the blocker by itself', () => {
    const { api, calls, running } = fakeBlocker();
    const power = createPowerSaveController(api);
    power.update(1);
    running.clear();
    power.update(1);
    expect(calls).toEqual(['start prevent-app-suspension', 'start prevent-app-suspension']);
    expect(power.blocking()).toBe(true);
  });

  it('lets the computer sleep when the app quits', () => {
    const { api, running } = fakeBlocker();
    const power = createPowerSaveController(api);
    power.update(4);
    power.release();
    expect(running.size).toBe(0);
    expect(power.blocking()).toBe(false);
  });
});
