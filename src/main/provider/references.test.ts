import { describe, expect, it } from 'vitest';
import { parseProviderTimestamp } from '#shared/provider-time';
import {
  COUNTER_RUN_WORD,
  TRIAL_RUN_WORD,
  createReferenceGenerator,
  parseReference,
  ReferenceGeneratorError,
} from './references';
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
    [{ runId: 'counter' }],
  ])('refuses bad options %j', (options) => {
    expect(() => createReferenceGenerator(options)).toThrow(ReferenceGeneratorError);
  });

  it('refuses a random source that returns too few bytes', () => {
    expect(() => createReferenceGenerator({ random: () => new Uint8Array(1) })).toThrow(
      ReferenceGeneratorError,
    );
  });

  it('writes the till prefix it is given at each reference, so a renamed till shows at once', () => {
    let prefix = 'TILLA7K2';
    const generator = createReferenceGenerator({ prefix: () => prefix, clock: fixedClock });
    expect(generator.next()).toMatch(/^TILLA7K2-/);
    prefix = 'FRONT';
    expect(generator.next()).toMatch(/^FRONT-20261122090500-[0-9A-HJKMNP-TV-Z]{6}-0002-/);
    prefix = 'front-1';
    expect(() => generator.next()).toThrow(ReferenceGeneratorError);
  });

  it('marks a standing account reference with COUNTER where the run id goes', () => {
    const generator = createReferenceGenerator({ prefix: 'TILLA7K2', clock: fixedClock });
    const sale = generator.next();
    const counter = generator.next('counter');
    expect(counter).toMatch(/^TILLA7K2-20261122090500-COUNTER-0002-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(counter).toMatch(REFERENCE_PATTERN);
    expect(parseReference(sale)).toEqual({
      tillPrefix: 'TILLA7K2',
      stamp: '20261122090500',
      run: generator.runId,
      sequence: 1,
      standingAccount: false,
      trial: false,
    });
    expect(parseReference(counter)).toMatchObject({ run: COUNTER_RUN_WORD, standingAccount: true });
  });

  it('marks a go-live trial account reference with TRIAL where the run id goes', () => {
    const generator = createReferenceGenerator({ prefix: 'TILLA7K2', clock: fixedClock });
    const trial = generator.next('trial');
    expect(trial).toMatch(/^TILLA7K2-20261122090500-TRIAL-0001-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(trial).toMatch(REFERENCE_PATTERN);
    expect(parseReference(trial)).toMatchObject({ run: TRIAL_RUN_WORD, trial: true });
    expect(parseReference(generator.next())).toMatchObject({ trial: false });
    expect(() => createReferenceGenerator({ runId: 'trial' })).toThrow(ReferenceGeneratorError);
  });

  it('parses every reference it makes, and nothing in another shape', () => {
    for (const prefix of ['T', 'TT', 'till1', 'P'.repeat(16)]) {
      const generator = createReferenceGenerator({ prefix });
      for (let i = 0; i < 50; i++) {
        const kind = i % 5 === 0 ? 'counter' : 'sale';
        expect(parseReference(generator.next(kind))).toMatchObject({
          tillPrefix: prefix.toUpperCase(),
          sequence: i + 1,
          standingAccount: kind === 'counter',
        });
      }
    }
    for (const other of [
      null,
      '',
      'TT-1',
      'INV-0001',
      'P'.repeat(17) + '-20261122090500-K3J9QF-0001-X7Q2M9AB',
      'TT-20261122090500-K3J9QF-001-X7Q2M9AB',
      'TT-20261122090500-K3J9QF-0001-X7Q2M9A',
      'TT-20261122090500-K3J9QF-0001-X7Q2M9AB-1',
      'TT-20261122090500-K3J9QF-0001-x7q2m9ab',
    ]) {
      expect(parseReference(other), String(other)).toBeNull();
    }
  });
});
