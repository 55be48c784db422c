import { describe, expect, it } from 'vitest';
import { parseProviderTimestamp } from '#shared/provider-time';
import { referencePrefix } from '#shared/till-id';
import { createReferenceGenerator } from '#main/provider/references';
import { attributeReference, shopLine, type Attribution } from './attribution';

const clock = () => parseProviderTimestamp('2026-11-22 09:05:00');
const tillA = createReferenceGenerator({ prefix: referencePrefix('till-a7k2'), clock });
const tillB = createReferenceGenerator({ prefix: referencePrefix('till-b9q3'), clock });
const HERE = { tillPrefix: 'TILLA7K2' };

describe('attributeReference', () => {
  it("puts this till's references on this till, another till's on that till", () => {
    expect(attributeReference(tillA.next(), HERE)).toEqual({
      kind: 'this-till',
      tillPrefix: 'TILLA7K2',
      standingAccount: false,
    });
    expect(attributeReference(tillB.next(), HERE)).toEqual({
      kind: 'other-till',
      tillPrefix: 'TILLB9Q3',
      standingAccount: false,
    });
  });

  it("marks any shop till's standing account, whichever till made it", () => {
    const own = attributeReference(tillA.next('counter'), HERE);
    const other = attributeReference(tillB.next('counter'), HERE);
    expect(own).toEqual({ kind: 'this-till', tillPrefix: 'TILLA7K2', standingAccount: true });
    expect(other).toEqual({ kind: 'other-till', tillPrefix: 'TILLB9Q3', standingAccount: true });
    expect([own, other].map(shopLine)).toEqual(['standing-account', 'standing-account']);
  });

  it('treats a reference in no format of this app (or none) as money no till of the shop made', () => {
    const notOurs: Attribution = { kind: 'not-ours', tillPrefix: null, standingAccount: false };
    for (const reference of [
      null,
      '',
      'INV-2026-0001',
      'TT-1',
      // Almost: a random part with a letter Crockford's base32 never uses (U), a short stamp,
      // a prefix with a character a till id cannot give, a missing sequence.
      'TILLB9Q3-20261122090500-K3J9QF-0001-X7Q2M9AU',
      'TILLB9Q3-202611220905-K3J9QF-0001-X7Q2M9AB',
      'TILL_B-20261122090500-K3J9QF-0001-X7Q2M9AB',
      'TILLB9Q3-20261122090500-K3J9QF-X7Q2M9AB',
    ]) {
      expect(attributeReference(reference, HERE), String(reference)).toEqual(notOurs);
      expect(shopLine(attributeReference(reference, HERE))).toBe('not-ours');
    }
  });

  it('keeps what this till has locally as its own, whatever the reference says', () => {
    // A sale made before the till id changed carries the old prefix; a standing account made
    // before counter references were marked carries a sale-like one; tests use short ones.
    expect(attributeReference(tillB.next(), { ...HERE, localSale: true })).toEqual({
      kind: 'this-till',
      tillPrefix: 'TILLB9Q3',
      standingAccount: false,
    });
    expect(attributeReference('TT-1', { ...HERE, localSale: true })).toEqual({
      kind: 'this-till',
      tillPrefix: 'TILLA7K2',
      standingAccount: false,
    });
    expect(attributeReference('CTR-FLEX-1', { ...HERE, localStandingAccount: true })).toEqual({
      kind: 'this-till',
      tillPrefix: 'TILLA7K2',
      standingAccount: true,
    });
  });

  it('reads the prefix of older builds (written as typed) without case', () => {
    const old = createReferenceGenerator({ prefix: 'till1', clock }).next();
    expect(old).toMatch(/^till1-/);
    expect(attributeReference(old, { tillPrefix: referencePrefix('till-1') }).kind).toBe(
      'this-till',
    );
    expect(attributeReference(old, { tillPrefix: 'till1' }).kind).toBe('this-till');
    expect(attributeReference(old, HERE)).toMatchObject({
      kind: 'other-till',
      tillPrefix: 'TILL1',
    });
  });
});
