import { z } from 'zod';
import { RENDERER_ERROR_LIMITS } from '../wire';
import { channel, noInput } from './channel';

/** The browser shell's addresses with its new token, shown once after a rotation. */
export interface ShellAccessView {
  readonly url: string;
  readonly displayUrl: string;
}

/** The shells' own upkeep (a per-shell group: see `perShellGroups`). */
export const shellChannels = {
  /** A screen hit a render error: it goes to the main log (bounded here, redacted there). */
  reportRendererError: channel<{ readonly logged: boolean }>()(
    z
      .object({
        screen: z.string().trim().min(1).max(RENDERER_ERROR_LIMITS.screen),
        message: z.string().max(RENDERER_ERROR_LIMITS.message),
        stack: z.string().max(RENDERER_ERROR_LIMITS.stack).optional(),
        componentStack: z.string().max(RENDERER_ERROR_LIMITS.componentStack).optional(),
      })
      .strict(),
    'open',
  ),
  /** The browser shell's access token: a new one, and pages holding the old one are refused. */
  rotateShellToken: channel<ShellAccessView>()(noInput),
} as const;
