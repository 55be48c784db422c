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

const configModule = fromBuilder('app-builder-lib/out/util/config/config') as ConfigModule;
const metadataModule = fromBuilder('app-builder-lib/out/util/packageMetadata') as MetadataModule;
const matcherModule = fromBuilder('app-builder-lib/out/fileMatcher') as MatcherModule;

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
