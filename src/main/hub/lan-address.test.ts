import { describe, expect, it } from 'vitest';
import {
  certificateNames,
  lanAddressFor,
  lanIpv4Addresses,
  urlHost,
  type NetworkInterfaces,
} from './lan-address';

const shop: NetworkInterfaces = {
  lo: [
    { address: '127.0.0.1', family: 'IPv4', internal: true },
    { address: '::1', family: 'IPv6', internal: true },
  ],
  eth0: [
    { address: 'fe80::1', family: 'IPv6', internal: false },
    { address: '192.168.1.20', family: 'IPv4', internal: false },
  ],
  wlan0: [
    { address: '169.254.3.3', family: 'IPv4', internal: false },
    { address: '10.0.0.7', family: 4, internal: false },
    { address: '192.168.1.20', family: 'IPv4', internal: false },
  ],
};

describe('the LAN address counters are given', () => {
  it('lists the LAN IPv4 addresses once each, without loopback or link-local ones', () => {
    expect(lanIpv4Addresses(shop)).toEqual(['192.168.1.20', '10.0.0.7']);
  });

  it('is the host given, unless the listener listens on every address', () => {
    expect(lanAddressFor('10.0.0.7', shop)).toBe('10.0.0.7');
    expect(lanAddressFor('127.0.0.1', shop)).toBe('127.0.0.1');
    expect(lanAddressFor('0.0.0.0', shop)).toBe('192.168.1.20');
    expect(lanAddressFor('::', shop)).toBe('192.168.1.20');
  });

  it('falls back to 127.0.0.1 on a machine with no network', () => {
    expect(lanAddressFor('0.0.0.0', { lo: shop.lo })).toBe('127.0.0.1');
    expect(lanAddressFor('0.0.0.0', {})).toBe('127.0.0.1');
  });

  it('writes IPv6 addresses in brackets for URLs', () => {
    expect(urlHost('192.168.1.20')).toBe('192.168.1.20');
    expect(urlHost('fd00::5')).toBe('[fd00::5]');
  });
});

describe('the names the certificate covers', () => {
  it('covers localhost, 127.0.0.1 and every LAN address', () => {
    expect(certificateNames('0.0.0.0', shop)).toEqual({
      dns: ['localhost'],
      ips: ['127.0.0.1', '192.168.1.20', '10.0.0.7'],
    });
  });

  it('adds a host it was told to listen on that the interfaces do not list', () => {
    expect(certificateNames('fd00::5', {}).ips).toEqual(['127.0.0.1', 'fd00::5']);
    expect(certificateNames('127.0.0.1', {}).ips).toEqual(['127.0.0.1']);
  });
});
