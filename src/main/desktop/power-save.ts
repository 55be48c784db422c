/**
 * Keeping the computer awake while a sale waits: a sleeping PC answers no callbacks and runs no
 * checks, and the customer's transfer would show as paid only after it wakes. 'prevent-app-
 * suspension' keeps the system running but lets the screen go dark (the shop's power bill).
 */

export type PowerSaveAction = 'start' | 'stop' | null;

/** What to do about the blocker: start it for the first open sale, stop it after the last. */
export function powerSaveAction(blocking: boolean, openSales: number): PowerSaveAction {
  if (openSales > 0 && !blocking) return 'start';
  if (openSales === 0 && blocking) return 'stop';
  return null;
}

/** The part of Electron's powerSaveBlocker used here. */
export interface PowerSaveBlockerApi {
  start(type: 'prevent-app-suspension'): number;
  stop(id: number): void;
  isStarted(id: number): boolean;
}

export interface PowerSaveController {
  /** The open-sale count changed (or was read again). */
  update(openSales: number): void;
  /** The app quits: let the computer sleep again. */
  release(): void;
  blocking(): boolean;
}

export function createPowerSaveController(api: PowerSaveBlockerApi): PowerSaveController {
  let id: number | null = null;
  // The OS may end a blocker on its own; ask rather than trust the id we kept.
  const blocking = () => id !== null && api.isStarted(id);
  return {
    update(openSales) {
      const action = powerSaveAction(blocking(), openSales);
      if (action === 'start') id = api.start('prevent-app-suspension');
      if (action === 'stop' && id !== null) {
        api.stop(id);
        id = null;
      }
    },
    release() {
      if (id !== null && api.isStarted(id)) api.stop(id);
      id = null;
    },
    blocking,
  };
}
