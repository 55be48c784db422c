import { describe, expect, it } from 'vitest';
import {
  lanHostAllowed,
  lanOriginAllowed,
  loopbackHostAllowed,
  loopbackOriginAllowed,
} from './host-rules';

describe('the loopback listener', () => {
  it('answers 127.0.0.1 and localhost on its own port only', () => {
    expect(loopbackHostAllowed('127.0.0.1:5000', 5000)).toBe(true);
    expect(loopbackHostAllowed('localhost:5000', 5000)).toBe(true);
    expect(loopbackHostAllowed('127.0.0.1:5001', 5000)).toBe(false);
    expect(loopbackHostAllowed('evil.example:5000', 5000)).toBe(false);
    expect(loopbackHostAllowed(undefined, 5000)).toBe(false);
    expect(loopbackOriginAllowed('http://127.0.0.1:5000', 5000)).toBe(true);
    expect(loopbackOriginAllowed('https://127.0.0.1:5000', 5000)).toBe(false);
  });
});

describe('the LAN listener (DNS-rebinding guard)', () => {
  it.each([
    ['192.168.1.20:7443', true],
    ['127.0.0.1:7443', true],
    ['localhost:7443', true],
    ['[fd00::5]:7443', true],
    ['[::1]:7443', true],
    ['192.168.1.20:7444', false],
    ['192.168.1.20', false],
    ['shop-hub.local:7443', false],
    ['evil.example:7443', false],
    ['0x7f.1:7443', false],
    ['192.168.1.20.nip.io:7443', false],
    ['[not-v6]:7443', false],
    ['fd00::5:7443', false],
    ['', false],
  ] as const)('Host %s on port 7443: %s', (host, allowed) => {
    expect(lanHostAllowed(host, 7443)).toBe(allowed);
  });

  it('reads a Host without a port as https on 443', () => {
    expect(lanHostAllowed('192.168.1.20', 443)).toBe(true);
    expect(lanHostAllowed(undefined, 443)).toBe(false);
  });

  it('takes calls only from pages of the address the page reached it by, over https', () => {
    expect(lanOriginAllowed('https://192.168.1.20:7443', '192.168.1.20:7443')).toBe(true);
    expect(lanOriginAllowed('http://192.168.1.20:7443', '192.168.1.20:7443')).toBe(false);
    expect(lanOriginAllowed('https://192.168.1.21:7443', '192.168.1.20:7443')).toBe(false);
    expect(lanOriginAllowed('https://evil.example', '192.168.1.20:7443')).toBe(false);
    expect(lanOriginAllowed('null', '192.168.1.20:7443')).toBe(false);
    expect(lanOriginAllowed('https://192.168.1.20', '192.168.1.20:443')).toBe(true);
  });
});
