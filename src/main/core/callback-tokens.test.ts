import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '#main/logging/redact';
import { createFileSecretBox } from '#main/secrets/file-secret-box';
import { CALLBACK_TOKENS_FILE, openCallbackTokens, ROTATION_GRACE_MS } from './callback-tokens';

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-tokens-'));
  let now = 1_000;
  const redactor = createRedactor();
  const open = () =>
    openCallbackTokens({ dataDir, box: createFileSecretBox(dataDir), redactor, now: () => now });
  return { dataDir, redactor, open, advance: (ms: number) => (now += ms) };
}

describe('callback tokens', () => {
  it('persist across restarts, encrypted, at least 128 bits', () => {
    const { dataDir, open } = setup();
    const [token] = open().list();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(open().list()).toEqual([token]);
    expect(readFileSync(join(dataDir, CALLBACK_TOKENS_FILE), 'utf8')).not.toContain(token);
  });

  it('rotate, keeping the old token valid for the grace period only', () => {
    const { open, advance, redactor } = setup();
    const tokens = open();
    const [old] = tokens.list();
    tokens.rotate();
    const [fresh, previous] = tokens.list();
    expect(fresh).not.toBe(old);
    expect(previous).toBe(old);
    expect(open().list()).toEqual([fresh, old]);
    advance(ROTATION_GRACE_MS);
    expect(tokens.list()).toEqual([fresh]);
    expect(redactor.redactText(`path /callbacks/${fresh}`)).not.toContain(fresh!);
  });
});
