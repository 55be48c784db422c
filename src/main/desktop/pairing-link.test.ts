import { describe, expect, it } from 'vitest';
import {
  fingerprintHex,
  fingerprintPairs,
  isLanHost,
  parsePairingLink,
  PairingLinkError,
  type PairingLinkErrorCode,
} from './pairing-link';

const FP = 'a1'.repeat(32);
const CODE = 'Q2xhc3NpYy1jb2RlLTEyOA';
const LINK = `https://192.168.1.20:7443/#/pair&code=${CODE}&fp=${FP}`;

function codeOf(text: string): PairingLinkErrorCode | null {
  try {
    parsePairingLink(text);
    return null;
  } catch (error) {
    if (error instanceof PairingLinkError) return error.code;
    throw error;
  }
}

describe('parsePairingLink', () => {
  it('reads the hub origin, the code and the fingerprint of a pairing link', () => {
    expect(parsePairingLink(LINK)).toEqual({
      hubOrigin: 'https://192.168.1.20:7443',
      code: CODE,
      fingerprint: FP,
      href: LINK,
    });
  });

  it('takes a link pasted with spaces around it, the parameters in any order, and an upper-case fp', () => {
    const link = parsePairingLink(
      `  https://10.0.0.5:7443/#/pair&fp=${FP.toUpperCase()}&code=${CODE}\n`,
    );
    expect(link.hubOrigin).toBe('https://10.0.0.5:7443');
    expect(link.fingerprint).toBe(FP);
    expect(link.code).toBe(CODE);
  });

  it('accepts an IPv6 literal, localhost and the default https port', () => {
    expect(parsePairingLink(`https://[fe80::1]:7443/#/pair&code=${CODE}&fp=${FP}`).hubOrigin).toBe(
      'https://[fe80::1]:7443',
    );
    expect(parsePairingLink(`https://localhost:7443/#/pair&code=${CODE}&fp=${FP}`).hubOrigin).toBe(
      'https://localhost:7443',
    );
    expect(parsePairingLink(`https://192.168.1.20/#/pair&code=${CODE}&fp=${FP}`).hubOrigin).toBe(
      'https://192.168.1.20',
    );
  });

  it.each([
    [
      'an http link',
      `http://192.168.1.20:7443/#/pair&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_HTTPS',
    ],
    [
      'a DNS name',
      `https://hub.example.com:7443/#/pair&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_LAN_ADDRESS',
    ],
    [
      'a look-alike of an address',
      `https://192.168.1.20.evil.com/#/pair&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_LAN_ADDRESS',
    ],
    [
      'a link without fp',
      `https://192.168.1.20:7443/#/pair&code=${CODE}`,
      'PAIRING_LINK_NO_FINGERPRINT',
    ],
    [
      'an fp with colons',
      `https://192.168.1.20:7443/#/pair&code=${CODE}&fp=${fingerprintPairs(FP)}`,
      'PAIRING_LINK_NO_FINGERPRINT',
    ],
    [
      'a short fp',
      `https://192.168.1.20:7443/#/pair&code=${CODE}&fp=${FP.slice(2)}`,
      'PAIRING_LINK_NO_FINGERPRINT',
    ],
    [
      'an fp that is not hex',
      `https://192.168.1.20:7443/#/pair&code=${CODE}&fp=${'zz'.repeat(32)}`,
      'PAIRING_LINK_NO_FINGERPRINT',
    ],
    ['a link without code', `https://192.168.1.20:7443/#/pair&fp=${FP}`, 'PAIRING_LINK_NO_CODE'],
    [
      'a code with odd characters',
      `https://192.168.1.20:7443/#/pair&code=abc%3Cscript%3Eabcdefghij&fp=${FP}`,
      'PAIRING_LINK_NO_CODE',
    ],
    [
      'another route',
      `https://192.168.1.20:7443/#/sale&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_PAIRING',
    ],
    [
      'the parameters in the query',
      `https://192.168.1.20:7443/?code=${CODE}&fp=${FP}#/pair`,
      'PAIRING_LINK_NOT_PAIRING',
    ],
    [
      'a path',
      `https://192.168.1.20:7443/other/#/pair&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_PAIRING',
    ],
    [
      'credentials',
      `https://user:pw@192.168.1.20:7443/#/pair&code=${CODE}&fp=${FP}`,
      'PAIRING_LINK_NOT_PAIRING',
    ],
    ['not a link', 'pair me please', 'PAIRING_LINK_NOT_A_LINK'],
    ['an empty text', '', 'PAIRING_LINK_NOT_A_LINK'],
  ] as const)('refuses %s', (_label, text, code) => {
    expect(codeOf(text)).toBe(code);
  });

  it('explains the refusal in words for the person at the counter', () => {
    expect(() => parsePairingLink(`http://192.168.1.20:7443/#/pair&code=${CODE}&fp=${FP}`)).toThrow(
      /https:\/\//,
    );
  });
});

describe('isLanHost', () => {
  it.each(['192.168.1.20', '10.0.0.1', '127.0.0.1', '[::1]', '::1', 'localhost', 'LOCALHOST'])(
    'takes %s',
    (host) => expect(isLanHost(host)).toBe(true),
  );
  it.each(['hub.local', 'example.com', 'localhost.evil.com', '', '192.168.1'])(
    'refuses %s',
    (host) => expect(isLanHost(host)).toBe(false),
  );
});

describe('fingerprint formats', () => {
  it('normalises 64 hex digits to lower case and refuses anything else', () => {
    expect(fingerprintHex(FP.toUpperCase())).toBe(FP);
    expect(fingerprintHex(fingerprintPairs(FP))).toBeNull();
    expect(fingerprintHex(`${FP}00`)).toBeNull();
  });

  it('writes a fingerprint in upper-case pairs, as the hub shows it', () => {
    expect(fingerprintPairs('0a1b2c')).toBe('0A:1B:2C');
    expect(fingerprintPairs(FP)).toHaveLength(64 + 31);
  });
});
