import { describe, expect, it } from 'vitest';
import { PAIRING_TTL_MS } from '#shared/hub';
import { createPairingCodes, MAX_OUTSTANDING_CODES, PairingError } from './pairing-codes';

function setup() {
  const clock = { now: Date.UTC(2026, 10, 22, 9) };
  return { clock, codes: createPairingCodes({ now: () => clock.now }) };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PairingError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('pairing codes', () => {
  it('are 128 random bits in base64url, and pair once', () => {
    const { codes } = setup();
    const first = codes.issue('Front counter');
    const second = codes.issue('Back counter');
    expect(first.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.code).not.toBe(first.code);
    expect(codes.redeem(first.code, (name) => `paired ${name}`)).toBe('paired Front counter');
    expect(refusal(() => codes.redeem(first.code, () => 'again'))).toBe('PAIRING_USED');
    expect(codes.redeem(second.code, (name) => name)).toBe('Back counter');
  });

  it('expire after ten minutes on the hub clock, and say so in words', () => {
    const { codes, clock } = setup();
    const issued = codes.issue('Front counter');
    expect(issued.expiresAt).toBe(clock.now + PAIRING_TTL_MS);
    clock.now += PAIRING_TTL_MS;
    expect(refusal(() => codes.redeem(issued.code, () => 'late'))).toBe('PAIRING_EXPIRED');
    expect(new PairingError('PAIRING_EXPIRED').message).toMatch(/more than 10 minutes old/);
    // Long after, the hub forgets it: it is unknown, as after a restart.
    clock.now += PAIRING_TTL_MS;
    expect(refusal(() => codes.redeem(issued.code, () => 'later'))).toBe('PAIRING_UNKNOWN');
  });

  it('refuse a code the hub never made, and stay usable when the pairing itself fails', () => {
    const { codes } = setup();
    expect(refusal(() => codes.redeem('A'.repeat(22), () => 'x'))).toBe('PAIRING_UNKNOWN');
    const issued = codes.issue('Front counter');
    expect(() =>
      codes.redeem(issued.code, () => {
        throw new Error('the database is busy');
      }),
    ).toThrow(/busy/);
    expect(codes.redeem(issued.code, (name) => name)).toBe('Front counter');
  });

  it(`keep at most ${MAX_OUTSTANDING_CODES} links waiting: the oldest is dropped`, () => {
    const { codes } = setup();
    const issued = Array.from({ length: MAX_OUTSTANDING_CODES + 1 }, (_, i) =>
      codes.issue(`Counter ${i + 1}`),
    );
    expect(codes.outstanding()).toBe(MAX_OUTSTANDING_CODES);
    expect(refusal(() => codes.redeem(issued[0]?.code ?? '', () => 'x'))).toBe('PAIRING_UNKNOWN');
    expect(codes.redeem(issued[1]?.code ?? '', (name) => name)).toBe('Counter 2');
    expect(codes.redeem(issued[MAX_OUTSTANDING_CODES]?.code ?? '', (name) => name)).toBe(
      `Counter ${MAX_OUTSTANDING_CODES + 1}`,
    );
  });
});
