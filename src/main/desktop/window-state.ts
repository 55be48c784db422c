import { z } from 'zod';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface WindowState extends Rect {
  readonly maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1100, height: 760 } as const;
const MIN = { width: 800, height: 600 } as const;

const stateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(MIN.width).max(20_000),
  height: z.number().int().min(MIN.height).max(20_000),
  maximized: z.boolean(),
});

/**
 * The remembered main-window position, if it is still usable: a corrupt file, a size below the
 * minimum, or a position on a screen that is no longer attached (laptop undocked) gives null, and
 * the window opens centred at its default size instead of off-screen.
 */
export function restoreWindowState(saved: unknown, displays: readonly Rect[]): WindowState | null {
  const parsed = stateSchema.safeParse(saved);
  if (!parsed.success) return null;
  const state = parsed.data;
  // At least a 100 x 50 corner of the title bar must be on some display to be grabbed.
  const visible = displays.some(
    (d) =>
      state.x + 100 > d.x &&
      state.x < d.x + d.width - 100 &&
      state.y + 50 > d.y &&
      state.y < d.y + d.height - 50,
  );
  return visible ? state : null;
}
