import { AppError } from '#shared/errors';
import type { BridgeEvent } from '#shared/bridge/contract';
import type { Scheduler } from '#main/clock/scheduler';
import type { Logger } from '#main/logging/logger';
import type { SettingsStore } from '#main/settings/settings-store';
import { raiseTillAlert } from '#main/engine/till-alerts';
import type { Callbacks } from './callbacks';
import type { Runtime } from './runtime';
import type { StartupProblem } from './startup-problems';

export interface RuntimeHolderDeps {
  /** Opens the runtime of the environment the settings name now. */
  readonly open: () => Promise<Runtime>;
  /** Before a runtime closes: what belongs to its database is written (the hub's last contacts). */
  readonly beforeClose: () => void;
  /** Alerts raised in each new runtime's database before it starts. */
  readonly problems: () => readonly StartupProblem[];
  readonly scheduler: Scheduler;
  readonly emit: (event: BridgeEvent) => void;
}

/** The runtime in use, switched whole when the shop moves between sandbox, staging and live. */
export interface RuntimeHolder {
  /** The runtime, or null while it switches. */
  get(): Runtime | null;
  /** The runtime; throws BUSY while it switches. */
  current(): Runtime;
  switch(): Promise<void>;
  close(): Promise<void>;
}

export function holdRuntime(deps: RuntimeHolderDeps): RuntimeHolder {
  let runtime: Runtime | null = null;

  /** Closes `previous`; the last contacts not written yet belong to its database. */
  async function closeRuntime(previous: Runtime | null): Promise<void> {
    if (previous) deps.beforeClose();
    await previous?.close();
  }

  return {
    get: () => runtime,
    current() {
      if (!runtime) {
        throw new AppError('BUSY', 'The till is switching environments. Try again in a moment.');
      }
      return runtime;
    },
    async switch() {
      const previous = runtime;
      runtime = null;
      await closeRuntime(previous);
      const opened = await deps.open();
      runtime = opened;
      for (const problem of deps.problems()) {
        const alert = raiseTillAlert(opened.db, problem, deps.scheduler.now());
        if (alert) deps.emit({ type: 'alert', payload: alert });
      }
      opened.start();
    },
    async close() {
      await closeRuntime(runtime);
      runtime = null;
    },
  };
}

/**
 * Saved settings: a new environment (or time zone) rebuilds the runtime, then the callbacks
 * follow it; any other save goes to the callbacks at once (the tunnel, the route's proof).
 */
export function followEnvironment(deps: {
  readonly settings: SettingsStore;
  readonly runtimes: RuntimeHolder;
  readonly callbacks: Pick<Callbacks, 'settingsSaved' | 'environmentSwitched'>;
  readonly logger: Logger;
  readonly closed: () => boolean;
}): void {
  const { settings, runtimes, callbacks, logger } = deps;
  let lastEnvironment = settings.get().environment;
  let lastTimeZone = settings.get().timeZone;
  settings.subscribe((next) => {
    if (deps.closed()) return;
    // A new time zone reaches the references and the provider client of a rebuilt runtime,
    // as a switch of environment does: it applies when saved, without a restart.
    if (next.environment === lastEnvironment && next.timeZone === lastTimeZone) {
      callbacks.settingsSaved();
      return;
    }
    lastEnvironment = next.environment;
    lastTimeZone = next.timeZone;
    void runtimes
      .switch()
      .then(() => callbacks.environmentSwitched())
      .catch((error: unknown) => logger.error({ err: error }, 'switching environment failed'));
  });
}
