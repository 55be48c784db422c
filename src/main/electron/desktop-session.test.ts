import { describe, expect, it } from 'vitest';
import { contentsIdOfSession, desktopSessionId } from './desktop-session';

describe('desktop sessions', () => {
  it("reads a desktop window's id from its session id, and nothing else", () => {
    expect(contentsIdOfSession(desktopSessionId(7))).toBe(7);
    expect(contentsIdOfSession('desktop-1234567890')).toBe(1_234_567_890);
    for (const other of ['browser-7', 'desktop-', 'desktop-07', 'desktop-7x', 'desktop--1', '7']) {
      expect(contentsIdOfSession(other), other).toBeNull();
    }
  });
});
