import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LanFlagError } from './lan-flags';
import { DataDirError } from '#main/config/data-dir';
import { readWebFlags, WebFlagError } from './web-flags';

const read = (argv: readonly string[]) => readWebFlags(argv, {}, '/tmp/fallback');

describe('readWebFlags', () => {
  it('reads every flag of npm run web, in both spellings', () => {
    const flags = read([
      '--port',
      '5',
      '--data-dir=d',
      '--dev-clock',
      '--sandbox-url',
      'http://127.0.0.1:4010/control',
      '--lan',
      '--lan-host',
      '127.0.0.1',
      '--lan-port=0',
    ]);
    expect(flags).toEqual({
      port: 5,
      dataDir: resolve('d'),
      devClock: true,
      sandboxUrl: 'http://127.0.0.1:4010/control',
      lan: { forceOn: true, host: '127.0.0.1', port: 0 },
    });
    expect(read(['--port=7']).port).toBe(7);
  });

  it('has the defaults of a plain start', () => {
    expect(read([])).toEqual({
      port: undefined,
      dataDir: '/tmp/fallback',
      devClock: false,
      sandboxUrl: undefined,
      lan: { forceOn: false, host: undefined, port: undefined },
    });
  });

  it('says what is wrong with a flag in its own words', () => {
    expect(() => read(['--port', 'x'])).toThrow('--port must be a number from 0 to 65535, not "x"');
    expect(() => read(['--port'])).toThrow(WebFlagError);
    expect(() => read(['--port', '70000'])).toThrow(WebFlagError);
    expect(() => read(['--data-dir'])).toThrow(DataDirError);
    expect(() => read(['--sandbox-url'])).toThrow('--sandbox-url needs the control_url');
    expect(() => read(['--sandbox-url', '--data-dir', 'd'])).toThrow(
      '--sandbox-url needs the control_url',
    );
    expect(() => read(['--dev-clock=yes'])).toThrow('--dev-clock takes no value');
    expect(() => read(['--lan-host', 'somewhere'])).toThrow(LanFlagError);
  });

  it('refuses an unknown flag or a stray argument by name', () => {
    expect(() => read(['--prot', '5'])).toThrow(/unknown flag --prot: npm run web takes --port, /);
    expect(() => read(['-p', '5'])).toThrow(/unknown flag -p/);
    expect(() => read(['--lan', 'yes'])).toThrow(/unexpected argument "yes"/);
  });
});
