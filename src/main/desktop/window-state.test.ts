import { describe, expect, it } from 'vitest';
import { restoreWindowState } from './window-state';

const laptop = { x: 0, y: 0, width: 1920, height: 1080 };
const external = { x: 1920, y: 0, width: 2560, height: 1440 };

describe('restoreWindowState', () => {
  it('restores a position that is on an attached display', () => {
    const saved = { x: 100, y: 80, width: 1200, height: 800, maximized: false };
    expect(restoreWindowState(saved, [laptop])).toEqual(saved);
    expect(restoreWindowState({ ...saved, x: 2500 }, [laptop, external])).toMatchObject({
      x: 2500,
    });
  });

  it('drops a position on a display that is gone', () => {
    expect(
      restoreWindowState({ x: 2500, y: 80, width: 1200, height: 800, maximized: true }, [laptop]),
    ).toBeNull();
  });

  it.each([
    null,
    'junk',
    { x: 1 },
    { x: 0, y: 0, width: 100, height: 100, maximized: false },
    { x: 0.5, y: 0, width: 1200, height: 800, maximized: false },
  ])('ignores a bad saved state %j', (saved) => {
    expect(restoreWindowState(saved, [laptop])).toBeNull();
  });
});
