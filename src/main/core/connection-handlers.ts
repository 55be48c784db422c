import type { HandlersOf, shellChannels } from '#shared/bridge/contract';
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

export interface ConnectionHandlerDeps {
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * The shells' own channels. A render error is logged through the app logger, which redacts
 * secrets; the channel's schema bounds its size. The browser shell answers rotateShellToken
 * itself (the token is its own); anywhere else the channel says it does not apply.
 */
export function connectionHandlers(deps: ConnectionHandlerDeps): HandlersOf<typeof shellChannels> {
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  let dropped = 0;

  return {
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
      throw new ShellTokenUnavailableError();
    },
  };
}
