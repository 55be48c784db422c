// The layering rule of ARCHITECTURE.md: the layer of a file is read from its folder, and each
// layer may import only what the table below allows. Modelled on VS Code's code-layering rule.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** @typedef {'shared' | 'main' | 'preload' | 'renderer' | 'test-support' | 'test' | 'other'} Layer */

/**
 * The layers inside src/main, lowest first. A file may import from its own layer or any layer
 * below it, never above; eslint-rules/house.js also refuses a cycle between folders.
 */
export const MAIN_LAYERS = /** @type {const} */ ([
  'platform',
  'store',
  'adapters',
  'domain',
  'hub',
  'core',
  'shells',
]);

/** @typedef {typeof MAIN_LAYERS[number]} MainLayer */
/** @typedef {{ readonly folder: string, readonly layer: MainLayer | null }} MainPlace */

/**
 * Each folder of src/main and its layer. A new folder gets a line here, or the rule refuses its
 * imports: where code goes is decided once, on purpose.
 * @type {Readonly<Record<string, MainLayer>>}
 */
export const MAIN_FOLDERS = Object.freeze({
  // platform: what any part of a program needs, knowing nothing of sales.
  clock: 'platform',
  logging: 'platform',
  security: 'platform',
  config: 'platform',
  secrets: 'platform',
  settings: 'platform',
  // store: the SQLite file and every statement run on it.
  store: 'store',
  // adapters: the outside world. The sandbox is a separate program standing in for the provider
  // (its own server, its own database); the core may start it in-process, so it sits here.
  provider: 'adapters',
  webhook: 'adapters',
  tunnel: 'adapters',
  sandbox: 'adapters',
  // domain: the shop's rules. auth holds who is calling and what they may touch.
  engine: 'domain',
  sync: 'domain',
  reports: 'domain',
  payouts: 'domain',
  auth: 'domain',
  printing: 'domain',
  // hub: the shop's counters, their pairing and tokens.
  hub: 'hub',
  // core: the composition and its handler tables; bridge is the channel dispatch both shells
  // run a call through, so it sits below them, beside the core.
  core: 'core',
  bridge: 'core',
  // shells: what a person or device reaches the core through. The LAN listener is in web/.
  web: 'shells',
  electron: 'shells',
  desktop: 'shells',
});

/**
 * Where a file of src/main sits: its folder and that folder's layer (null when the folder has no
 * line in MAIN_FOLDERS), or null for a file outside src/main.
 * @param {string} file absolute path
 * @param {string} root absolute project root
 * @returns {MainPlace | null}
 */
export function mainPlaceOf(file, root) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (!rel.startsWith('src/main/')) return null;
  const parts = rel.slice('src/main/'.length).split('/');
  // 'src/main/tunnel' is the folder's index; 'src/main/probe.ts' a file with no folder.
  const first = parts[0] ?? '';
  const folder = parts.length > 1 || !/\.[cm]?[jt]sx?$/.test(first) ? first : '';
  return {
    folder,
    layer: Object.hasOwn(MAIN_FOLDERS, folder) ? (MAIN_FOLDERS[folder] ?? null) : null,
  };
}

/**
 * Why an import from one place in src/main to another is refused, or null when it runs down or
 * stays in its layer.
 * @param {MainPlace} from
 * @param {MainPlace} to
 * @returns {string | null}
 */
export function mainViolation(from, to) {
  if (from.layer === null) return unlisted(from.folder);
  if (to.layer === null) return unlisted(to.folder);
  if (MAIN_LAYERS.indexOf(to.layer) <= MAIN_LAYERS.indexOf(from.layer)) return null;
  return `src/main/${from.folder} (${from.layer}) must not import from src/main/${to.folder} (${to.layer}): imports run down the layers ${MAIN_LAYERS.join(' < ')}`;
}

/** @param {string} folder */
function unlisted(folder) {
  const where = folder === '' ? 'a file directly in src/main' : `src/main/${folder}`;
  return `${where} has no layer: give its folder one in MAIN_FOLDERS (eslint-rules/layering.js)`;
}

/**
 * @param {string} file absolute path
 * @param {string} root absolute project root
 * @returns {Layer}
 */
export function layerOf(file, root) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('src/shared/')) return 'shared';
  if (rel.startsWith('src/main/')) return 'main';
  if (rel.startsWith('src/preload/')) return 'preload';
  if (rel.startsWith('src/renderer/')) return 'renderer';
  if (rel.startsWith('test/support/')) return 'test-support';
  if (rel.startsWith('test/')) return 'test';
  return 'other';
}

/** Packages that src/shared may use: pure TypeScript with no node:, electron or DOM. */
const SHARED_PACKAGES = new Set(['zod']);
/** Test runners that colocated unit tests may import in any layer. */
const TEST_PACKAGES = new Set(['vitest']);
/** Test helpers (test/support) and the rest of test/: for tests and benchmarks only. */
const TEST_LAYERS = new Set(['test-support', 'test']);

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Tests and benchmarks: a *.test.ts(x) file anywhere, anything under test/ or bench/. Only they
 * may reach test code; a production file that did would ship it.
 * @param {string} file absolute path
 * @param {string} root absolute project root
 */
export function isTestFile(file, root) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  return /\.test\.tsx?$/.test(rel) || rel.startsWith('test/') || rel.startsWith('bench/');
}

/** @type {Map<string, ReadonlyArray<readonly [string, string]>>} */
const aliasCache = new Map();

/**
 * The path aliases of tsconfig.paths.json as [prefix, folder] pairs ('#main/', 'src/main/'): an
 * alias is a file in that folder, not a package, or `#main/…` would pass every layer.
 * @param {string} root absolute project root
 * @returns {ReadonlyArray<readonly [string, string]>}
 */
export function aliasesOf(root) {
  let aliases = aliasCache.get(root);
  if (!aliases) {
    /** @type {{ compilerOptions: { paths: Record<string, string[]> } }} */
    const config = JSON.parse(readFileSync(path.join(root, 'tsconfig.paths.json'), 'utf8'));
    aliases = Object.entries(config.compilerOptions.paths).map(([key, [target = '']]) => [
      key.replace(/\*$/, ''),
      path.posix.normalize(target.replace(/\*$/, '')),
    ]);
    aliasCache.set(root, aliases);
  }
  return aliases;
}

/**
 * What an import specifier points at.
 * @param {string} source
 * @param {string} file
 * @param {string} root
 * @returns {{ kind: 'builtin' } | { kind: 'electron' } | { kind: 'package', name: string } | { kind: 'file', layer: Layer, place: MainPlace | null }}
 */
export function targetOf(source, file, root) {
  if (source.startsWith('.') || path.isAbsolute(source)) {
    const target = path.resolve(path.dirname(file), source);
    return { kind: 'file', layer: layerOf(target, root), place: mainPlaceOf(target, root) };
  }
  for (const [prefix, folder] of aliasesOf(root)) {
    if (source.startsWith(prefix)) {
      const target = path.resolve(root, folder, source.slice(prefix.length));
      return { kind: 'file', layer: layerOf(target, root), place: mainPlaceOf(target, root) };
    }
  }
  if (
    source.startsWith('node:') ||
    builtins.has(source) ||
    builtins.has(source.split('/')[0] ?? '')
  ) {
    return { kind: 'builtin' };
  }
  if (source === 'electron' || source.startsWith('electron/')) return { kind: 'electron' };
  const parts = source.split('/');
  const name = source.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? source);
  return { kind: 'package', name };
}

/**
 * The reason an import is refused, or null when it is allowed.
 * @param {Layer} layer
 * @param {ReturnType<typeof targetOf>} target
 * @param {boolean} isTest
 * @param {MainPlace | null} [place] where the importing file sits in src/main
 * @returns {string | null}
 */
export function violation(layer, target, isTest, place = null) {
  if (target.kind === 'package' && isTest && TEST_PACKAGES.has(target.name)) return null;
  if (target.kind === 'file' && TEST_LAYERS.has(target.layer)) {
    if (isTest) return null;
    const what = target.layer === 'test-support' ? 'test/support' : 'test code';
    return `${what} may be imported only by tests (*.test.ts, test/) and benchmarks (bench/)`;
  }
  switch (layer) {
    case 'shared':
      if (target.kind === 'builtin') return 'src/shared must not import Node built-ins';
      if (target.kind === 'electron') return 'src/shared must not import electron';
      if (target.kind === 'package' && !SHARED_PACKAGES.has(target.name)) {
        return `src/shared may import only ${[...SHARED_PACKAGES].join(', ')}, not '${target.name}' (no DOM or Node code)`;
      }
      if (target.kind === 'file' && target.layer !== 'shared') {
        return `src/shared must not import from ${target.layer}`;
      }
      return null;
    case 'main': {
      if (target.kind === 'electron' && place?.folder !== 'electron') {
        return "only the Electron glue (src/main/electron) may import 'electron'";
      }
      if (target.kind !== 'file') return null;
      if (target.layer === 'shared') return null;
      if (target.layer !== 'main') return `src/main must not import from ${target.layer}`;
      // A colocated test may build its world from parts above its folder (a query-plan test
      // registers the report's SQL functions); the house is drawn from production imports.
      if (isTest) return null;
      return place && target.place ? mainViolation(place, target.place) : null;
    }
    case 'preload':
      if (target.kind === 'electron') return null;
      if (target.kind === 'file' && ['preload', 'shared'].includes(target.layer)) return null;
      return 'src/preload may import only electron and src/shared';
    case 'renderer':
      if (target.kind === 'builtin') return 'the renderer must not import Node built-ins';
      if (target.kind === 'electron') return 'the renderer must not import electron';
      if (target.kind === 'file' && !['renderer', 'shared'].includes(target.layer)) {
        return `the renderer may import only itself and src/shared, not ${target.layer}`;
      }
      return null;
    default:
      return null;
  }
}

/**
 * A test helper is imported by its alias, `#support/…`, from outside test/support: one spelling
 * a reader can search for, that does not change when a test moves.
 * @param {string} source
 * @param {ReturnType<typeof targetOf>} target
 * @param {Layer} layer
 * @returns {string | null}
 */
export function supportPathViolation(source, target, layer) {
  if (target.kind !== 'file' || target.layer !== 'test-support' || layer === 'test-support') {
    return null;
  }
  return source.startsWith('.')
    ? 'import test helpers as #support/…, not by a relative path'
    : null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layeringRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import layers of ARCHITECTURE.md' },
    schema: [],
    messages: { layer: "Layering: {{reason}} (import '{{source}}')." },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const layer = layerOf(file, root);
    const isTest = isTestFile(file, root);
    const place = mainPlaceOf(file, root);

    /** @param {import('estree').Node | null | undefined} node */
    function check(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const target = targetOf(node.value, file, root);
      const reason =
        violation(layer, target, isTest, place) ?? supportPathViolation(node.value, target, layer);
      if (reason) {
        context.report({ node, messageId: 'layer', data: { reason, source: node.value } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          check(/** @type {import('estree').Node} */ (node.arguments[0]));
        }
      },
      // TypeScript forms: `import x = require('m')` and `typeof import('m')`.
      /** @param {{ expression: import('estree').Node }} node */
      TSExternalModuleReference: (node) => check(node.expression),
      /** @param {{ source?: import('estree').Node, argument?: { literal?: import('estree').Node } }} node */
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
    };
  },
};

export default { rules: { layering: layeringRule } };
