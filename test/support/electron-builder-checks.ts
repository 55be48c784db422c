/**
 * electron-builder's own checks, called offline: the configuration as it reads it (package.json
 * "build" with its defaults), its schema validation (app-builder-lib's scheme.json through its
 * validateConfiguration), its package.json metadata checks, and its file matchers (`files`,
 * `asarUnpack`) with their minimatch rules. These are internal modules of app-builder-lib,
 * required from where electron-builder itself finds them, so that the tests judge by the same
 * code `npm run dist` runs first; if a release moves them, these requires fail loudly.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration } from 'electron-builder';

const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));

interface ConfigModule {
  getConfig(projectDir: string, configPath: null, options: null): Promise<Configuration>;
  validateConfiguration(
    config: Configuration,
    debug: { readonly isEnabled: boolean; add(key: string, value: unknown): void },
  ): Promise<void>;
}
interface MetadataModule {
  checkMetadata(metadata: object, devMetadata: object, file: string, devFile: string): void;
}
interface Matcher {
  createFilter(): (file: string, stat: ReturnType<typeof statSync>) => boolean;
}
interface MatcherModule {
  getFileMatchers(
    config: Configuration,
    name: 'files' | 'asarUnpack',
    destination: string,
    options: {
      readonly macroExpander: (pattern: string) => string;
      readonly customBuildOptions: object;
      readonly globalOutDir: string;
      readonly defaultSrc: string;
    },
  ): Matcher[] | null;
}

interface PackagerModule {
  readonly PlatformPackager: {
    readonly prototype: {
      generateFuseConfig(fuses: NonNullable<Configuration['electronFuses']>): Promise<object>;
    };
  };
}
interface FusesModule {
  readonly FuseV1Options: Readonly<Record<number, string>>;
}

const configModule = fromBuilder('app-builder-lib/out/util/config/config') as ConfigModule;
const metadataModule = fromBuilder('app-builder-lib/out/util/packageMetadata') as MetadataModule;
const matcherModule = fromBuilder('app-builder-lib/out/fileMatcher') as MatcherModule;
// Its index (the packager module alone hits an import cycle of app-builder-lib).
const packagerModule = fromBuilder('app-builder-lib') as PackagerModule;
// Where app-builder-lib's own import('@electron/fuses') finds it.
const fromBuilderLib = createRequire(fromBuilder.resolve('app-builder-lib/package.json'));
const fusesModule = fromBuilderLib('@electron/fuses') as FusesModule;

/** The configuration electron-builder would build with (package.json "build" and defaults). */
export function builderConfig(projectDir: string): Promise<Configuration> {
  return configModule.getConfig(projectDir, null, null);
}

/** Rejects with electron-builder's own message when the configuration breaks its schema. */
export function validateBuilderConfig(config: Configuration): Promise<void> {
  return configModule.validateConfiguration(config, { isEnabled: false, add: () => undefined });
}

/** Throws electron-builder's message for package.json fields it refuses (name, version, …). */
export function checkBuilderMetadata(packageJson: object, file: string): void {
  metadataModule.checkMetadata(packageJson, packageJson, file, file);
}

/**
 * Whether electron-builder's `files` or `asarUnpack` patterns take a file (absolute path inside
 * projectDir), as its packer asks them. null when the configuration names no pattern at all.
 */
export function builderFilter(
  config: Configuration,
  name: 'files' | 'asarUnpack',
  projectDir: string,
  platform: 'linux' | 'win' | 'mac',
): ((file: string) => boolean) | null {
  const matchers = matcherModule.getFileMatchers(config, name, join(projectDir, 'app'), {
    macroExpander: (pattern) => pattern,
    customBuildOptions: config[platform] ?? {},
    globalOutDir: join(projectDir, config.directories?.output ?? 'dist'),
    defaultSrc: projectDir,
  });
  const first = matchers?.[0];
  if (!first) return null;
  const filter = first.createFilter();
  return (file) => filter(file, statSync(file));
}

/**
 * The fuses electron-builder flips in the packaged Electron binary, by @electron/fuses' names
 * (RunAsNode, OnlyLoadAppFromAsar, …): its `electronFuses` option as its packager turns it into
 * the @electron/fuses configuration just before signing. Empty when the option is absent.
 */
export async function builderFuses(config: Configuration): Promise<Record<string, boolean>> {
  if (config.electronFuses == null) return {};
  const flipped = await packagerModule.PlatformPackager.prototype.generateFuseConfig.call(
    null,
    config.electronFuses,
  );
  const named: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(flipped)) {
    const name = fusesModule.FuseV1Options[Number(key)];
    if (name !== undefined && typeof value === 'boolean') named[name] = value;
  }
  return named;
}
