import type { HandlersOf, ShellAccessView, shellChannels } from '#shared/bridge/contract';
import type { Logger } from '#main/logging/logger';
import { AppError } from '#shared/errors';

/** A page in a render loop could fill the log: this many reports a minute, the rest counted. */
export const RENDERER_REPORTS_PER_MINUTE = 20;

/** The channel exists in every shell, but only the browser shell has a token to rotate. */
export class ShellTokenUnavailableError extends AppError<'NOT_AVAILABLE'> {
  constructor() {
    super(
      'NOT_AVAILABLE',
      'Only the browser shell has an access token; the desktop app needs none.',
    );
    this.name = 'ShellTokenUnavailableError';
  }
}

export interface ShellHandlerDeps {
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * What a shell hands in for the shell group (a per-shell group in the contract): the browser
 * shell its token rotation; a shell with no token of its own (the desktop app, a paired counter,
 * an in-process caller) `NO_SHELL_PARTS`.
 */
export interface ShellParts {
  readonly rotateToken: (() => ShellAccessView) | null;
}

export const NO_SHELL_PARTS: ShellParts = { rotateToken: null };

/**
 * The shells' own channels. A render error is logged through the app logger, which redacts
 * secrets; the channel's schema bounds its size, and one budget a minute holds across every
 * shell's table. rotateShellToken is the shell's own: it answers with the shell's rotation, and
 * where the shell has none the channel says it does not apply.
 */
export function shellHandlers(
  deps: ShellHandlerDeps,
): (shell: ShellParts) => HandlersOf<typeof shellChannels> {
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  let dropped = 0;

  return (shell) => ({
    reportRendererError(input, caller) {
      const at = deps.now();
      if (at - windowStart >= 60_000) {
        if (dropped > 0) {
          deps.logger.warn({ dropped }, 'renderer errors not logged (too many in a minute)');
        }
        windowStart = at;
        inWindow = 0;
        dropped = 0;
      }
      if (inWindow >= RENDERER_REPORTS_PER_MINUTE) {
        dropped += 1;
        return { logged: false };
      }
      inWindow += 1;
      deps.logger.error(
        {
          screen: input.screen,
          error: input.message,
          ...(input.stack ? { stack: input.stack } : {}),
          ...(input.componentStack ? { componentStack: input.componentStack } : {}),
          via: caller.via,
          role: caller.role,
        },
        'renderer error',
      );
      return { logged: true };
    },
    rotateShellToken() {
      if (!shell.rotateToken) throw new ShellTokenUnavailableError();
      return shell.rotateToken();
    },
  });
}
