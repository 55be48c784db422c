import { describe, expect, it } from 'vitest';
import {
  classifyContentType,
  extractHint,
  parseCallbackBody,
  parseForm,
  recoverIntegerLiteral,
} from './callback-parser';

const SESSION = '100004260101123456789012345678';

describe('classifyContentType', () => {
  it.each([
    ['application/json', 'json'],
    ['Application/JSON; charset=UTF-8', 'json'],
    ['application/vnd.provider+json', 'json'],
    ['text/json', 'json'],
    ['application/x-www-form-urlencoded', 'form'],
    ['application/x-www-form-urlencoded;charset=utf-8', 'form'],
    [null, 'none'],
    ['', 'none'],
    ['text/plain', 'unsupported'],
    ['multipart/form-data; boundary=x', 'unsupported'],
    ['application/xml', 'unsupported'],
  ] as const)('%s → %s', (header, kind) => {
    expect(classifyContentType(header)).toBe(kind);
  });
});

describe('parseCallbackBody', () => {
  it('reads the sandbox-style JSON callback', () => {
    const body = JSON.stringify({
      event: 'payment.success',
      reference: 'sale-42',
      external_reference: 'sale-42',
      account_number: '9912345678',
      session_id: SESSION,
      amount: 1234.56,
      status: 'success',
    });
    expect(parseCallbackBody(body, 'application/json')).toEqual({
      parseStatus: 'ok',
      hint: {
        reference: 'sale-42',
        sessionId: SESSION,
        amountKobo: 123456,
        status: 'success',
        accountNumber: '9912345678',
      },
    });
  });

  it('finds fields nested under data and the camel-case spellings', () => {
    const body = JSON.stringify({
      status: 'success',
      data: {
        sessionID: SESSION,
        externalReference: 'sale-7',
        amount: '2,500.50',
        accountNumber: 1234567,
      },
    });
    expect(parseCallbackBody(body, 'application/json; charset=utf-8').hint).toEqual({
      reference: 'sale-7',
      sessionId: SESSION,
      amountKobo: 250050,
      status: 'success',
      accountNumber: '0001234567',
    });
  });

  it('prefers external_reference (ours) over reference (the provider may use its own)', () => {
    const body = JSON.stringify({ reference: 'PRV-1', external_reference: 'sale-9' });
    expect(parseCallbackBody(body, 'application/json').hint).toEqual({ reference: 'sale-9' });
  });

  it('keeps a session id given as a short safe integer as a string', () => {
    expect(parseCallbackBody('{"session_id": 12345}', 'application/json').hint).toEqual({
      sessionId: '12345',
    });
  });

  it('recovers the exact digits of a 30-digit session id sent as a JSON number', () => {
    const body = `{"session_id": ${SESSION}, "amount": 100}`;
    expect(parseCallbackBody(body, 'application/json').hint).toEqual({
      sessionId: SESSION,
      amountKobo: 10000,
    });
  });

  it('drops an unsafe numeric session id when the raw digits are ambiguous', () => {
    const body = `{"session_id": ${SESSION}, "data": {"session_id": 999999999999999999999}}`;
    const parsed = parseCallbackBody(body, 'application/json');
    expect(parsed.parseStatus).toBe('ok');
    expect(parsed.hint?.sessionId).toBeUndefined();
    // Nothing usable under a known name: a shape to search, not a session id to trust.
    expect(parsed.hint?.foreign?.fields).toEqual(['session_id', 'data.session_id']);
  });

  it('leaves out an amount that is not exact Naira but keeps the rest', () => {
    for (const amount of [1.234, 'ten', -5, null, true, '1e400', { v: 1 }]) {
      const body = JSON.stringify({ session_id: SESSION, amount });
      expect(parseCallbackBody(body, 'application/json').hint).toEqual({ sessionId: SESSION });
    }
  });

  it('ignores values of the wrong type, blank or with control characters', () => {
    const body = JSON.stringify({
      reference: '   ',
      session_id: { nested: true },
      status: 42,
      account_number: 'a\u0000b',
    });
    const parsed = parseCallbackBody(body, 'application/json');
    expect(parsed.parseStatus).toBe('ok');
    expect(parsed.hint).toEqual({ foreign: expect.any(Object) as unknown });
    expect(parsed.hint?.foreign?.fields).toEqual([
      'reference',
      'session_id.nested',
      'status',
      'account_number',
    ]);
  });

  it('reads a form-encoded body, with bracketed nesting and + for spaces', () => {
    const body = `data%5Bsession_id%5D=${SESSION}&reference=sale+1&amount=500&status=success`;
    expect(parseCallbackBody(body, 'application/x-www-form-urlencoded')).toEqual({
      parseStatus: 'ok',
      hint: { reference: 'sale 1', sessionId: SESSION, amountKobo: 50000, status: 'success' },
    });
  });

  it('takes JSON mislabelled as a form as JSON', () => {
    const body = JSON.stringify({ session_id: SESSION });
    expect(parseCallbackBody(body, 'application/x-www-form-urlencoded').hint).toEqual({
      sessionId: SESSION,
    });
  });

  it('accepts a missing content type only when the body is JSON', () => {
    expect(parseCallbackBody(`{"session_id":"${SESSION}"}`, null).hint).toEqual({
      sessionId: SESSION,
    });
    expect(parseCallbackBody('session_id=1', null)).toEqual({
      parseStatus: 'malformed',
      hint: null,
      reason: 'unsupported-content-type',
    });
  });

  it('classifies empty, unsupported and malformed bodies', () => {
    expect(parseCallbackBody('', 'application/json')).toEqual({ parseStatus: 'empty', hint: null });
    expect(parseCallbackBody(' \n', 'text/plain').parseStatus).toBe('empty');
    expect(parseCallbackBody('{"a":1}', 'text/plain')).toMatchObject({
      parseStatus: 'malformed',
      reason: 'unsupported-content-type',
    });
    expect(parseCallbackBody('{"a":', 'application/json')).toMatchObject({
      parseStatus: 'malformed',
      reason: 'invalid-json',
    });
    expect(parseCallbackBody('just words', 'application/x-www-form-urlencoded')).toMatchObject({
      parseStatus: 'malformed',
      reason: 'invalid-form',
    });
    expect(parseCallbackBody('a=%E0%A4%A', 'application/x-www-form-urlencoded')).toMatchObject({
      parseStatus: 'malformed',
      reason: 'invalid-form',
    });
  });

  it('accepts valid JSON that is not an object, as a shape it does not recognise', () => {
    expect(parseCallbackBody('[1,2]', 'application/json').hint?.foreign?.fields).toEqual([
      '0',
      '1',
    ]);
    expect(parseCallbackBody('"x"', 'application/json').hint?.foreign).toMatchObject({
      fields: ['(body)'],
      values: ['x'],
    });
    expect(parseCallbackBody('{}', 'application/json')).toEqual({ parseStatus: 'ok', hint: null });
  });

  it('strips a byte-order mark', () => {
    expect(parseCallbackBody(`\uFEFF{"session_id":"${SESSION}"}`, 'application/json').hint).toEqual(
      {
        sessionId: SESSION,
      },
    );
  });
});

describe('parseForm', () => {
  it('never writes to Object.prototype', () => {
    const fields = parseForm('__proto__%5Bpolluted%5D=yes&constructor=1');
    expect(fields).not.toBeNull();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps the first of repeated keys', () => {
    expect(parseForm('a=1&a=2')).toEqual(Object.assign(Object.create(null) as object, { a: '1' }));
  });
});

describe('extractHint and recoverIntegerLiteral', () => {
  it('returns null for non-objects', () => {
    expect(extractHint(null, null)).toBeNull();
    expect(extractHint([{ session_id: 'x' }], null)).toBeNull();
  });

  it('recovers only a single plain integer literal', () => {
    expect(recoverIntegerLiteral(`{"session_id" : ${SESSION}}`, 'session_id')).toBe(SESSION);
    expect(recoverIntegerLiteral('{"session_id": 1.5e30}', 'session_id')).toBeUndefined();
    expect(recoverIntegerLiteral('{"session_id": "1"}', 'session_id')).toBeUndefined();
    expect(recoverIntegerLiteral('{"x": 1}', 'session_id')).toBeUndefined();
  });
});

describe('a body of a shape the till does not recognise', () => {
  const FORM = 'application/x-www-form-urlencoded';

  it('keeps its values and a sample with the hint, so the engine can search them', () => {
    const parsed = parseCallbackBody(
      `txnRef=TT-ABC-1&vaNumber=0123456789&nipSessionRef=${SESSION}&amountPaid=1500&txnStatus=SUCCESSFUL`,
      FORM,
    );
    expect(parsed.parseStatus).toBe('ok');
    expect(parsed.hint?.reference).toBeUndefined();
    expect(parsed.hint?.foreign?.fields).toEqual([
      'txnRef',
      'vaNumber',
      'nipSessionRef',
      'amountPaid',
      'txnStatus',
    ]);
    expect(parsed.hint?.foreign?.values).toContain('TT-ABC-1');
    expect(parsed.hint?.foreign?.values).toContain(SESSION);
    expect(parsed.hint?.foreign?.sample).toMatch(/^txnRef=TT-ABC-1; vaNumber=0123456789; /);
  });

  it('walks nested JSON, masks secret-looking fields and caps what it keeps', () => {
    const body = JSON.stringify({
      meta: { signature: 'abc123', api_key: 'sk_live', pin: '1234' },
      items: [{ ref: 'TT-X' }],
      many: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, 'v'.repeat(500)])),
    });
    const foreign = parseCallbackBody(body, 'application/json').hint?.foreign;
    expect(foreign?.fields.slice(0, 4)).toEqual([
      'meta.signature',
      'meta.api_key',
      'meta.pin',
      'items.0.ref',
    ]);
    expect(foreign?.values).not.toContain('abc123');
    expect(foreign?.values).not.toContain('sk_live');
    expect(foreign?.values).not.toContain('1234');
    expect(foreign?.values).toContain('TT-X');
    expect(foreign?.fields).toHaveLength(50);
    expect(foreign?.values.every((value) => value.length <= 256)).toBe(true);
    expect(foreign?.sample.length).toBeLessThanOrEqual(403);
    expect(foreign?.sample).toContain('meta.signature=***');
  });

  it('adds nothing to a body whose shape is ours', () => {
    const parsed = parseCallbackBody(JSON.stringify({ reference: 'TT-1', amount: 10 }), null);
    expect(parsed.hint).toEqual({ reference: 'TT-1', amountKobo: 1000 });
  });
});
