import { describe, expect, it } from 'vitest';
import { LanFlagError, readLanFlags } from './lan-flags';

describe('the browser shell flags of the shop hub', () => {
  it('leaves the listener, its address and its port to Settings without --lan', () => {
    expect(readLanFlags(['--port', '0', '--data-dir', 'd', '--dev-clock'])).toEqual({
      forceOn: false,
      host: undefined,
      port: undefined,
    });
  });

  it('reads --lan, --lan-host and --lan-port among the other flags', () => {
    expect(
      readLanFlags([
        '--sandbox-url',
        'http://127.0.0.1:1/control',
        '--lan',
        '--lan-host',
        '127.0.0.1',
        '--lan-port=0',
      ]),
    ).toEqual({ forceOn: true, host: '127.0.0.1', port: 0 });
    expect(readLanFlags(['--lan', '--lan-port', '7443']).port).toBe(7443);
  });

  it.each([
    [['--lan-host'], '--lan-host needs an IP address'],
    [['--lan-host', 'shop.local'], '--lan-host needs an IP address'],
    [['--lan-port', 'abc'], '--lan-port must be a number from 0 to 65535'],
    [['--lan-port', '70000'], '--lan-port must be a number from 0 to 65535'],
    [['--lan-port', '-1'], '--lan-port must be a number from 0 to 65535'],
  ])('refuses %j', (argv, message) => {
    expect(() => readLanFlags(argv)).toThrow(LanFlagError);
    expect(() => readLanFlags(argv)).toThrow(message);
  });
});
