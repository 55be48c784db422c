/**
 * The electron-builder configuration (package.json "build") checked offline, so that `npm run
 * dist` on a machine with internet is not the first to find a mistake: electron-builder's own
 * schema and metadata checks, the deb target's metadata rules, the files it packs (after `npm run
 * build`, which npm test runs first), the native modules it must leave outside the asar, the
 * Electron fuses it flips, and the icons it names.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertDesktopBuildCurrent, PROJECT_ROOT } from '#support/desktop-build';
import {
  builderConfig,
  builderFilter,
  builderFuses,
  checkBuilderMetadata,
  validateBuilderConfig,
} from '#support/electron-builder-checks';

const PACKAGE_FILE = join(PROJECT_ROOT, 'package.json');

interface PackageJson {
  readonly main: string;
  readonly homepage?: string;
  readonly author?: string | { readonly name?: string; readonly email?: string };
  readonly dependencies: Readonly<Record<string, string>>;
}

const packageJson = JSON.parse(readFileSync(PACKAGE_FILE, 'utf8')) as PackageJson;
const PLATFORMS = ['linux', 'win', 'mac'] as const;

/**
 * The fuses of an installed till, by @electron/fuses' names: no Node through ELECTRON_RUN_AS_NODE,
 * NODE_OPTIONS or --inspect; cookies encrypted; only app.asar loads, its hash checked (macOS,
 * Windows). GrantFileProtocolExtraPrivileges keeps Electron's default: the renderer is a file: page.
 */
const HARDENED_FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableCookieEncryption: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
};

/** Why the asar fuses would not hold: no app.asar (nothing would load) or no hash embedded. */
function asarProblems(config: Configuration): string[] {
  const problems = PLATFORMS.filter((platform) => config[platform]?.asar === false).map(
    (platform) => `${platform}.asar is false`,
  );
  if (config.asar === false) problems.push('asar is false');
  if (config.disableAsarIntegrity) problems.push('disableAsarIntegrity is set');
  return problems;
}

/** Every file under dir (absolute paths), skipping nested node_modules (their own packages). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return [path];
  });
}

/** Installed packages the app ships: those of package-lock.json not marked dev. */
function productionPackageDirs(): string[] {
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
    readonly packages: Readonly<Record<string, { dev?: boolean; devOptional?: boolean }>>;
  };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
    .map(([path]) => join(PROJECT_ROOT, path))
    .filter((dir) => existsSync(dir));
}

/** Native modules not matched by asarUnpack (relative paths): they cannot load from the asar. */
function packedNativeModules(config: Configuration, platform: (typeof PLATFORMS)[number]) {
  const unpacked = builderFilter(config, 'asarUnpack', PROJECT_ROOT, platform);
  return nativeModules().filter((file) => !unpacked?.(file));
}

function nativeModules(): string[] {
  return productionPackageDirs()
    .flatMap(filesUnder)
    .filter((file) => file.endsWith('.node'));
}

/** As electron-builder finds an icon: in buildResources first, then in the project. */
function iconPath(config: Configuration, icon: string): string {
  const inResources = resolve(PROJECT_ROOT, config.directories?.buildResources ?? 'build', icon);
  return existsSync(inResources) ? inResources : resolve(PROJECT_ROOT, icon);
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  if (!bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) {
    throw new Error(`${file} is not a PNG`);
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The sizes an .ico holds (0 in a directory entry means 256). */
function icoSizes(file: string): number[] {
  const bytes = readFileSync(file);
  if (bytes.readUInt16LE(0) !== 0 || bytes.readUInt16LE(2) !== 1)
    throw new Error(`${file}: not ICO`);
  return Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => bytes[6 + 16 * i] || 256);
}

let config: Configuration;
beforeAll(async () => {
  config = await builderConfig(PROJECT_ROOT);
});

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own schema (scheme.json) and package.json checks', async () => {
    await expect(validateBuilderConfig(config)).resolves.toBeUndefined();
    expect(() => checkBuilderMetadata(packageJson, PACKAGE_FILE)).not.toThrow();
  });

  it('a mistake in it is refused by that schema (planted)', async () => {
    const planted = { ...config, win: { ...config.win, iconn: 'build/icon.ico' } };
    await expect(validateBuilderConfig(planted as Configuration)).rejects.toThrow(
      /configuration\.win/,
    );
    const electronShipped = { ...packageJson, dependencies: { electron: '^45.0.0' } };
    expect(() => checkBuilderMetadata(electronShipped, PACKAGE_FILE)).toThrow(/devDependencies/);
  });

  it('gives the deb package what electron-builder’s deb target demands', () => {
    // FpmTarget.computeFpmMetaInfoOptions (it needs a whole packager to call): a homepage (or a
    // GitHub repository), and a maintainer (linux.maintainer, else the author's email).
    expect(packageJson.homepage ?? '').toMatch(/^https:\/\/\S+$/);
    const author = typeof packageJson.author === 'object' ? packageJson.author.email : undefined;
    expect(config.linux?.maintainer ?? author ?? '').not.toBe('');
  });

  it('packs the built app: every files pattern matches, main, preload and renderer included', () => {
    const build = assertDesktopBuildCurrent();
    for (const platform of PLATFORMS) {
      const packs = builderFilter(config, 'files', PROJECT_ROOT, platform);
      expect(packs, 'files names no pattern').not.toBeNull();
      const needed = [
        resolve(PROJECT_ROOT, packageJson.main),
        build.main,
        build.preload,
        build.displayPreload,
        ...filesUnder(join(PROJECT_ROOT, 'out/renderer')),
        PACKAGE_FILE,
      ];
      expect(needed).toContain(build.rendererIndex);
      const left = needed.filter((file) => !existsSync(file) || !packs?.(file));
      expect(left.map((file) => relative(PROJECT_ROOT, file))).toEqual([]);
    }
    for (const pattern of config.files as string[]) {
      const onePattern = { ...config, files: [pattern] };
      const found = filesUnder(join(PROJECT_ROOT, 'out'))
        .concat(PACKAGE_FILE)
        .some((file) => builderFilter(onePattern, 'files', PROJECT_ROOT, 'linux')?.(file));
      expect(found, `files pattern ${pattern} matches nothing after the build`).toBe(true);
    }
  });

  it('unpacks every native module of the shipped packages from the asar', () => {
    const native = nativeModules().map((file) => relative(PROJECT_ROOT, file));
    expect(native).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    for (const platform of PLATFORMS) expect(packedNativeModules(config, platform)).toEqual([]);
  });

  it('a native module left in the asar is found (planted)', () => {
    const planted = { ...config, asarUnpack: ['**/*.dll'] };
    expect(
      packedNativeModules(planted, 'linux').map((file) => relative(PROJECT_ROOT, file)),
    ).toEqual(
      expect.arrayContaining(['node_modules/better-sqlite3/build/Release/better_sqlite3.node']),
    );
  });

  it('flips the hardening fuses in the packaged Electron, with the asar they rely on', async () => {
    expect(await builderFuses(config)).toEqual(HARDENED_FUSES);
    expect(asarProblems(config)).toEqual([]);
  });

  it('a fuse left out or turned back, and an asar turned off, are found (planted)', async () => {
    const { runAsNode: _runAsNode, ...withoutRunAsNode } = config.electronFuses ?? {};
    expect(await builderFuses({ ...config, electronFuses: withoutRunAsNode })).not.toEqual(
      HARDENED_FUSES,
    );
    const fromAnywhere = { ...config.electronFuses, onlyLoadAppFromAsar: false };
    expect(await builderFuses({ ...config, electronFuses: fromAnywhere })).not.toEqual(
      HARDENED_FUSES,
    );
    expect(await builderFuses({ ...config, electronFuses: null })).toEqual({});
    expect(asarProblems({ ...config, win: { ...config.win, asar: false } })).toEqual([
      'win.asar is false',
    ]);
    expect(asarProblems({ ...config, disableAsarIntegrity: true })).toEqual([
      'disableAsarIntegrity is set',
    ]);
  });

  it('names icons that exist in build/, each in its platform’s format and size', () => {
    const linux = iconPath(config, String(config.linux?.icon));
    expect(statSync(linux).isDirectory()).toBe(true);
    const pngs = readdirSync(linux).filter((name) => name.endsWith('.png'));
    for (const name of pngs) {
      const { width, height } = pngSize(join(linux, name));
      // electron-builder reads the size from the name (128x128.png): it must be the real one.
      expect(name).toBe(`${width}x${height}.png`);
    }
    expect(pngs).toContain('256x256.png');

    const win = iconPath(config, String(config.win?.icon));
    expect(win.startsWith(join(PROJECT_ROOT, 'build'))).toBe(true);
    // electron-builder refuses a Windows icon smaller than 256 × 256.
    expect(icoSizes(win)).toContain(256);

    const mac = iconPath(config, String(config.mac?.icon));
    const icns = readFileSync(mac);
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
  });
});
