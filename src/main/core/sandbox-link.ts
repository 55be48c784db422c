/**
 * Which sandbox provider the SANDBOX profile talks to: the embedded one (started with the
 * runtime, one per till) or a standalone `npm run sandbox` named by the profile's `sandboxUrl`
 * (shared by several tills). A standalone that cannot be read is an error the till shows,
 * never a reason to fall back to the embedded one: the shop would train on the wrong provider
 * without knowing it.
 */
import type { Scheduler } from '#main/clock/scheduler';
import { sandboxDbPath } from '#main/config/data-files';
import type { Logger } from '#main/logging/logger';
import { startSandboxProvider, type SandboxProvider } from '#main/sandbox';
import type { SettingsStore } from '#main/settings/settings-store';
import {
  normaliseSandboxUrl,
  readStandaloneSandbox,
  StandaloneSandboxError,
  type SandboxConnection,
} from './standalone-sandbox';

export interface SandboxLink {
  readonly kind: 'embedded' | 'standalone';
  /** The control API of the sandbox in use (the start line's `control_url`). */
  readonly controlUrl: string;
  /** The addresses and keys now; throws StandaloneSandboxError while a standalone cannot be read. */
  connection(): SandboxConnection;
  close(): Promise<void>;
}

export interface SandboxLinkOptions {
  /** The profile's `sandboxUrl`: '' for the embedded sandbox. */
  readonly sandboxUrl: string;
  readonly startEmbedded: () => Promise<SandboxProvider>;
  readonly readStandalone?: (sandboxUrl: string) => Promise<SandboxConnection>;
  /** A standalone that could not be read is tried again on use, at most this often. */
  readonly retryAfterMs?: number;
  /**
   * A standalone read this long ago is read again (in the background) on use: a sandbox
   * restarted in memory comes back with new keys, and the tills follow without a restart.
   */
  readonly refreshAfterMs?: number;
  readonly now?: () => number;
  readonly onReadFailed?: (error: StandaloneSandboxError) => void;
}

export const SANDBOX_RETRY_AFTER_MS = 2_000;
export const SANDBOX_REFRESH_AFTER_MS = 30_000;

function embeddedLink(sandbox: SandboxProvider): SandboxLink {
  const connection: SandboxConnection = {
    baseUrl: sandbox.baseUrl,
    payoutBaseUrl: sandbox.payoutBaseUrl,
    controlUrl: sandbox.controlUrl,
    secretKey: sandbox.secretKey,
    accessToken: sandbox.accessToken,
    payoutAccountId: sandbox.payoutAccountId,
  };
  return {
    kind: 'embedded',
    controlUrl: sandbox.controlUrl,
    connection: () => connection,
    close: () => sandbox.close(),
  };
}

function asStandaloneError(error: unknown, controlUrl: string): StandaloneSandboxError {
  if (error instanceof StandaloneSandboxError) return error;
  return new StandaloneSandboxError(
    'SANDBOX_UNREACHABLE',
    `Cannot read the shared sandbox at ${controlUrl}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * Opens the link. A standalone is read once here; when that fails the link still opens (the
 * till must start so that someone can fix the address in Settings) and each use tries again.
 */
export async function openSandboxLink(options: SandboxLinkOptions): Promise<SandboxLink> {
  if (options.sandboxUrl.trim() === '') return embeddedLink(await options.startEmbedded());

  const read = options.readStandalone ?? ((url: string) => readStandaloneSandbox(url));
  const now = options.now ?? Date.now;
  const retryAfterMs = options.retryAfterMs ?? SANDBOX_RETRY_AFTER_MS;
  const refreshAfterMs = options.refreshAfterMs ?? SANDBOX_REFRESH_AFTER_MS;
  let controlUrl: string;
  try {
    controlUrl = normaliseSandboxUrl(options.sandboxUrl);
  } catch {
    controlUrl = options.sandboxUrl.trim();
  }
  let current: SandboxConnection | null = null;
  let problem: StandaloneSandboxError | null = null;
  let triedAt = 0;
  let reading: Promise<void> | null = null;
  let closed = false;

  function tryRead(): Promise<void> {
    triedAt = now();
    reading ??= read(options.sandboxUrl)
      .then((connection) => {
        if (closed) return;
        current = connection;
        problem = null;
      })
      .catch((error: unknown) => {
        if (closed) return;
        // A connection read before stays in use: its requests say for themselves what fails.
        problem = asStandaloneError(error, controlUrl);
        options.onReadFailed?.(problem);
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  }

  await tryRead();
  return {
    kind: 'standalone',
    controlUrl,
    connection() {
      const wait = current ? refreshAfterMs : retryAfterMs;
      if (reading === null && now() - triedAt >= wait) void tryRead();
      if (current) return current;
      throw (
        problem ??
        new StandaloneSandboxError(
          'SANDBOX_UNREACHABLE',
          `Still reading the shared sandbox at ${controlUrl}; try again in a moment.`,
        )
      );
    },
    async close() {
      closed = true;
      await reading;
    },
  };
}

/** The link in use, following the profile's `sandboxUrl` as Settings change it. */
export interface SandboxChoice {
  link(): SandboxLink;
  /** Settles a switch in progress (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxChoiceOptions {
  readonly sandboxUrl: () => string;
  /** Subscribes to settings changes; returns the unsubscribe function. */
  readonly onSettingsChange: (listener: () => void) => () => void;
  readonly open: (sandboxUrl: string) => Promise<SandboxLink>;
  readonly onSwitchFailed: (error: unknown) => void;
}

/**
 * Opens the link for the current address and switches when the address changes: the new link
 * opens first and the old one closes after, so that a link is always there to answer.
 */
export async function chooseSandbox(options: SandboxChoiceOptions): Promise<SandboxChoice> {
  let linkedUrl = options.sandboxUrl();
  let current = await options.open(linkedUrl);
  let closed = false;
  let switching: Promise<void> = Promise.resolve();

  async function follow(): Promise<void> {
    const wanted = options.sandboxUrl();
    if (closed || wanted === linkedUrl) return;
    const next = await options.open(wanted);
    if (closed) {
      await next.close();
      return;
    }
    const previous = current;
    current = next;
    linkedUrl = wanted;
    await previous.close();
  }

  const unsubscribe = options.onSettingsChange(() => {
    if (closed || options.sandboxUrl() === linkedUrl) return;
    switching = switching.then(follow).catch(options.onSwitchFailed);
  });

  return {
    link: () => current,
    settled: () => switching,
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      await switching;
      await current.close();
    },
  };
}

/** The embedded sandbox, or a standalone one shared by several tills (profiles.sandbox.sandboxUrl). */
export function openSandboxChoice(options: {
  readonly dataDir: string;
  readonly sandboxPort?: number;
  readonly settings: SettingsStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
}): Promise<SandboxChoice> {
  const { settings, scheduler, logger } = options;
  return chooseSandbox({
    sandboxUrl: () => settings.get().profiles.sandbox.sandboxUrl,
    onSettingsChange: (listener) => settings.subscribe(listener),
    open: (sandboxUrl) =>
      openSandboxLink({
        sandboxUrl,
        startEmbedded: () =>
          startSandboxProvider({
            dbPath: sandboxDbPath(options.dataDir),
            port: options.sandboxPort ?? 0,
            // One clock for the till and its sandbox, so a fast-forwarded clock moves both.
            now: () => scheduler.now(),
            onError: (error) => logger.warn({ err: error }, 'sandbox provider error'),
          }),
        onReadFailed: (error) => logger.warn({ err: error }, 'shared sandbox unreadable'),
      }),
    onSwitchFailed: (error) =>
      logger.error({ err: error }, 'switching the sandbox provider failed'),
  });
}
