import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR_ENV, DataDirError, resolveDataDir } from './data-dir';

describe('resolveDataDir', () => {
  it('prefers --data-dir, then the environment, then the fallback', () => {
    expect(resolveDataDir(['--data-dir', 'a'], { [DATA_DIR_ENV]: 'b' }, 'c')).toBe(resolve('a'));
    expect(resolveDataDir(['--data-dir=x/y'], {}, 'c')).toBe(resolve('x/y'));
    expect(resolveDataDir([], { [DATA_DIR_ENV]: 'b' }, 'c')).toBe(resolve('b'));
    expect(resolveDataDir(['--port', '5'], {}, '/tmp/c')).toBe('/tmp/c');
  });

  it('refuses --data-dir without a folder', () => {
    expect(() => resolveDataDir(['--data-dir'], {}, 'c')).toThrow(DataDirError);
    expect(() => resolveDataDir(['--data-dir', '--port'], {}, 'c')).toThrow(DataDirError);
    expect(() => resolveDataDir(['--data-dir='], {}, 'c')).toThrow(DataDirError);
  });
});
