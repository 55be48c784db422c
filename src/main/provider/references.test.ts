import { describe, expect, it } from 'vitest';
import { parseProviderTimestamp } from '../../shared/provider-time';
import { createReferenceGenerator, ReferenceGeneratorError } from './references';
import { REFERENCE_PATTERN } from './schemas';

const fixedClock = () => parseProviderTimestamp('2026-11-22 09:05:00');
const zeros = (size: number) => new Uint8Array(size);

describe('createReferenceGenerator', () => {
  it('writes prefix, Lagos time, run, sequence and randomness', () => {
    const bytes = (size: number) => Uint8Array.from({ length: size }, (_v, i) => i + 10);
    const generator = createReferenceGenerator({
      prefix: 'TT',
      runId: 'TILL1',
      clock: fixedClock,
      random: bytes,
    });
    expect(generator.next()).toBe('TT-20261122090500-TILL1-0001-ABCDEFGH');
    expect(generator.next()).toBe('TT-20261122090500-TILL1-0002-ABCDEFGH');
    expect(generator.runId).toBe('TILL1');
  });

  it('stays unique within a run even with a frozen clock and no randomness', () => {
    const generator = createReferenceGenerator({ clock: fixedClock, random: zeros });
    const refs = new Set<string>();
    for (let i = 0; i < 12_000; i++) refs.add(generator.next());
    expect(refs.size).toBe(12_000);
    for (const ref of refs) expect(ref).toMatch(REFERENCE_PATTERN);
  });

  it('differs across runs and tills at the same instant (crypto randomness)', () => {
    const a = createReferenceGenerator({ clock: fixedClock });
    const b = createReferenceGenerator({ clock: fixedClock });
    expect(a.runId).not.toBe(b.runId);
    expect(a.runId).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    const fromA = Array.from({ length: 100 }, () => a.next());
    const fromB = Array.from({ length: 100 }, () => b.next());
    expect(new Set([...fromA, ...fromB]).size).toBe(200);
  });

  it('keeps within the provider rule at the longest options', () => {
    const generator = createReferenceGenerator({ prefix: 'P'.repeat(16), runId: 'R'.repeat(16) });
    const ref = generator.next();
    expect(ref.length).toBeLessThanOrEqual(100);
    expect(ref).toMatch(REFERENCE_PATTERN);
  });

  it.each([
    [{ prefix: '' }],
    [{ prefix: 'T-T' }],
    [{ prefix: 'X'.repeat(17) }],
    [{ runId: 'till 1' }],
  ])('refuses bad options %j', (options) => {
    expect(() => createReferenceGenerator(options)).toThrow(ReferenceGeneratorError);
  });

  it('refuses a random source that returns too few bytes', () => {
    expect(() => createReferenceGenerator({ random: () => new Uint8Array(1) })).toThrow(
      ReferenceGeneratorError,
    );
  });
});
