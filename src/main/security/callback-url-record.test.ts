import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callbackUrlRecord } from './callback-url-record';

const token = () => randomBytes(32).toString('base64url');

describe('callbackUrlRecord', () => {
  it('keeps the origin and path and a fingerprint of the token, never the token', () => {
    const secret = token();
    const record = callbackUrlRecord(`https://shop.example/till/callbacks/${secret}`);
    expect(record).toMatch(
      /^https:\/\/shop\.example\/till\/callbacks\/\[token sha256:[0-9a-f]{16}\]$/,
    );
    expect(record).not.toContain(secret);
    expect(record).not.toContain(secret.slice(0, 12));
  });

  it('gives one address one record, and a rotated token another', () => {
    const secret = token();
    const url = `https://shop-1.ngrok.app/callbacks/${secret}`;
    expect(callbackUrlRecord(url)).toBe(callbackUrlRecord(url));
    expect(callbackUrlRecord(`https://shop-1.ngrok.app/callbacks/${token()}`)).not.toBe(
      callbackUrlRecord(url),
    );
    // Another host or port with the same token is another address.
    expect(callbackUrlRecord(`http://127.0.0.1:5173/callbacks/${secret}`)).not.toBe(
      callbackUrlRecord(url),
    );
  });

  it('leaves a record as it is, and keeps nothing readable of what is not a URL', () => {
    const record = callbackUrlRecord(`https://shop.example/callbacks/${token()}`);
    expect(callbackUrlRecord(record)).toBe(record);
    const secret = token();
    expect(callbackUrlRecord(`not a url ${secret}`)).toMatch(/^\[token sha256:[0-9a-f]{16}\]$/);
    expect(callbackUrlRecord(`https://h.example/cb/${secret}?q=${secret}#${secret}`)).not.toContain(
      secret,
    );
  });
});
