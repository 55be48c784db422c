import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppLogger } from './logger';
import { createRedactor, REDACTED } from './redact';

const SECRET = 'sk_live_9f8e7d6c5b4a39281706';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'till-log-'));
}

describe('app logger', () => {
  it('never writes a registered secret, a secret-named field or a bearer token', () => {
    const dataDir = tempDir();
    const log = createAppLogger({ dataDir });
    log.redactor.addSecret(SECRET);
    log.logger.info({ secretKey: SECRET, headers: { Authorization: `Bearer ${TOKEN}` } }, 'create');
    log.logger.info({ nested: { deeper: [{ accessToken: TOKEN }] } }, 'nested');
    log.logger.warn(`request failed for key ${SECRET}`);
    log.logger.error({ err: new Error(`provider said: bad key ${SECRET}`) }, 'failure');
    log.logger.info({ note: `secretKey: ${SECRET.slice(0, 8)}xyz123` }, 'header-like');
    log.close();

    const text = readFileSync(log.path, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(5);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('xyz123');
    expect(text).toContain(REDACTED);
    expect(text).toContain('provider said: bad key');
  });

  it('writes JSON lines with time and level in <dataDir>/logs', () => {
    const dataDir = tempDir();
    const log = createAppLogger({ dataDir });
    log.logger.info({ saleId: 42 }, 'sale created');
    log.close();
    const line = JSON.parse(readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(line).toMatchObject({ msg: 'sale created', saleId: 42, level: 30 });
    expect(typeof line['time']).toBe('string');
  });

  it('rotates by size and keeps only the configured number of files', () => {
    const dataDir = tempDir();
    const log = createAppLogger({ dataDir, maxBytes: 2_000, keep: 2 });
    for (let i = 0; i < 200; i++) log.logger.info({ i, padding: 'x'.repeat(50) }, 'line');
    log.close();
    const files = readdirSync(join(dataDir, 'logs')).sort();
    expect(files).toEqual(['main.log', 'main.log.1', 'main.log.2']);
    for (const file of files) {
      expect(readFileSync(join(dataDir, 'logs', file)).length).toBeLessThanOrEqual(2_000);
    }
    expect(readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')).toContain('"i":199');
  });
});

describe('redactor', () => {
  it('scrubs the longest secret first and ignores tiny values', () => {
    const redactor = createRedactor();
    redactor.addSecret('abcdef');
    redactor.addSecret('abcdefghij');
    redactor.addSecret('abc');
    expect(redactor.redactText('k=abcdefghij; j=abcdef; short abc')).toBe(
      `k=${REDACTED}; j=${REDACTED}; short abc`,
    );
  });

  it('masks secret-named fields but keeps booleans that say whether a secret is set', () => {
    const redactor = createRedactor();
    expect(
      redactor.redactValue({ secretKeySet: true, secretKey: 'x', password: 'y', amount: 5 }),
    ).toEqual({
      secretKeySet: true,
      secretKey: REDACTED,
      password: REDACTED,
      amount: 5,
    });
  });
});
