import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channelNames, channels, type Caller, type ChannelName } from '#shared/bridge/contract';
import { IN_PROCESS_OWNER } from './caller';
import { ownershipRefusal, type OwnershipLookup } from './ownership';

/** A field that names one sale or alert: saleId, alertId, paidSaleId, saleIds, … */
const OWNED_FIELD = /(sale|alert)Ids?$/i;

/** Every property name anywhere in a JSON schema (objects, unions, nested objects, arrays). */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) propertyNames(item, into);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
      if (key === 'properties' && value !== null && typeof value === 'object') {
        for (const name of Object.keys(value)) into.add(name);
      }
      propertyNames(value, into);
    }
  }
  return into;
}

/** The fields of a channel's input that hold a sale or alert id. */
function ownedFieldsOf(name: ChannelName): string[] {
  const json = z.toJSONSchema(channels[name].input, { io: 'input', unrepresentable: 'any' });
  return [...propertyNames(json)].filter((field) => OWNED_FIELD.test(field));
}

describe('ownership by construction: the contract table', () => {
  it('finds the id fields it looks for (the walk itself works)', () => {
    expect(ownedFieldsOf('printReceipt')).toEqual(['saleId']);
    expect(ownedFieldsOf('acknowledgeAlert')).toEqual(['alertId']);
    expect(ownedFieldsOf('createSale')).toEqual([]);
  });

  it('declares ownership on every channel whose input holds a sale or alert id', () => {
    const undeclared: string[] = [];
    for (const name of channelNames) {
      for (const field of ownedFieldsOf(name)) {
        const item = /alert/i.test(field) ? 'alert' : 'sale';
        const owns = channels[name].owns;
        if (owns?.field !== field || owns.item !== item) {
          undeclared.push(`${name}.${field} (declare { item: '${item}', field: '${field}' })`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('declares only fields the input really has', () => {
    for (const name of channelNames) {
      const owns = channels[name].owns;
      if (owns) expect(ownedFieldsOf(name), name).toContain(owns.field);
    }
  });
});

const SALES: Readonly<Record<number, { cashier: string | null; tillId: string | null }>> = {
  1: { cashier: 'Ade', tillId: 'till-frnt' },
  2: { cashier: 'Bola', tillId: 'till-back' },
};
const ALERTS: Readonly<Record<number, { saleId: number | null }>> = {
  10: { saleId: 1 },
  11: { saleId: 2 },
  12: { saleId: null },
};
const lookup: OwnershipLookup = {
  sale: (id) => SALES[id],
  alert: (id) => ALERTS[id],
};

const ade: Caller = { role: 'cashier', name: 'Ade', sessionId: 's1', via: 'browser' };
const front: Caller = {
  role: 'cashier',
  name: 'Bola', // whoever is signed in at a counter, its till decides
  sessionId: 's2',
  via: 'counter',
  counter: { id: 1, name: 'Front', tillId: 'till-frnt' },
};
const unpaired: Caller = { role: 'owner', name: 'Ade', sessionId: 's3', via: 'counter' };
const sale = { item: 'sale', field: 'saleId' } as const;
const alert = { item: 'alert', field: 'alertId' } as const;
const codeOf = (...args: Parameters<typeof ownershipRefusal>) =>
  ownershipRefusal(...args)?.code ?? null;

describe('the ownership rule', () => {
  it.each([
    ['the owner, any sale', IN_PROCESS_OWNER, 2, null],
    ['a cashier, their own sale', ade, 1, null],
    ["a cashier, another's sale", ade, 2, 'FORBIDDEN'],
    ["a counter, its till's sale (whoever made it)", front, 1, null],
    ["a counter, another till's sale", front, 2, 'FORBIDDEN'],
    ['a counter call with no paired counter', unpaired, 1, 'FORBIDDEN'],
    ['the owner, a sale that does not exist', IN_PROCESS_OWNER, 99, 'SALE_NOT_FOUND'],
    ['a counter, a sale that does not exist', front, 99, 'SALE_NOT_FOUND'],
  ])('sale: %s', (_label, caller, saleId, code) => {
    expect(codeOf(sale, { saleId }, caller, lookup)).toBe(code);
  });

  it.each([
    ['the owner, a shop alert', IN_PROCESS_OWNER, 12, null],
    ['a cashier, an alert about their sale', ade, 10, null],
    ["a cashier, an alert about another's sale", ade, 11, 'FORBIDDEN'],
    ['a cashier, a shop alert (no sale)', ade, 12, 'FORBIDDEN'],
    ["a counter, an alert about its till's sale", front, 10, null],
    ['a counter, a shop alert', front, 12, 'FORBIDDEN'],
    ['a counter, an alert that does not exist', front, 99, 'ALERT_NOT_FOUND'],
  ])('alert: %s', (_label, caller, alertId, code) => {
    expect(codeOf(alert, { alertId }, caller, lookup)).toBe(code);
  });

  it('fails closed for anyone but the owner when the table has no lookup', () => {
    expect(codeOf(sale, { saleId: 1 }, ade, undefined)).toBe('FORBIDDEN');
    expect(codeOf(sale, { saleId: 1 }, front, undefined)).toBe('FORBIDDEN');
    expect(codeOf(sale, { saleId: 1 }, IN_PROCESS_OWNER, undefined)).toBeNull();
  });
});
