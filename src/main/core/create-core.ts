import type { AppInfo, Handlers, ProviderEnvironment } from '../../shared/bridge/contract';
import { ensureDataDir } from '../config/data-dir';
import { createAppLogger, type AppLogger } from '../logging/logger';
import { createEventBus, type EventBus } from './event-bus';

export interface CoreConfig {
  readonly dataDir: string;
  readonly shell: AppInfo['shell'];
  readonly version: string;
  readonly environment?: ProviderEnvironment;
  readonly logLevel?: string;
  /** Copy log lines here too (redacted), e.g. process.stderr in development. */
  readonly logMirror?: { write(line: string): unknown };
}

export interface Core {
  readonly handlers: Handlers;
  readonly events: EventBus;
  readonly log: AppLogger;
  close(): Promise<void>;
}

/**
 * The composition root: builds the core from a config and returns the handler table, the event
 * stream and a close function. The Electron shell and the browser shell both call it and hold no
 * logic of their own.
 */
export function createCore(config: CoreConfig): Promise<Core> {
  ensureDataDir(config.dataDir);
  const log = createAppLogger({
    dataDir: config.dataDir,
    ...(config.logLevel ? { level: config.logLevel } : {}),
    ...(config.logMirror ? { mirror: config.logMirror } : {}),
  });
  const events = createEventBus((error) =>
    log.logger.error({ err: error }, 'event listener failed'),
  );
  const environment = config.environment ?? 'sandbox';

  const handlers = {
    getAppInfo: () => ({
      name: 'Transfer Till',
      version: config.version,
      shell: config.shell,
      environment,
    }),
  } satisfies Handlers;

  log.logger.info({ shell: config.shell, environment }, 'core started');
  let closed = false;
  return Promise.resolve({
    handlers,
    events,
    log,
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      log.logger.info('core closed');
      log.close();
      return Promise.resolve();
    },
  });
}
