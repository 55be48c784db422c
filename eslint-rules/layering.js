// The layering rule of ARCHITECTURE.md: the layer of a file is read from its folder, and each
// layer may import only what the table below allows. Modelled on VS Code's code-layering rule.
import { builtinModules } from 'node:module';
import path from 'node:path';

/** @typedef {'shared' | 'core' | 'glue' | 'preload' | 'renderer' | 'other'} Layer */

/** Packages that src/shared may use: pure TypeScript with no node:, electron or DOM. */
const SHARED_PACKAGES = new Set(['zod']);
/** Test runners that colocated unit tests may import in any layer. */
const TEST_PACKAGES = new Set(['vitest']);

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * @param {string} file absolute path
 * @param {string} root absolute project root
 * @returns {Layer}
 */
export function layerOf(file, root) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('src/shared/')) return 'shared';
  if (rel.startsWith('src/main/electron/')) return 'glue';
  if (rel.startsWith('src/main/')) return 'core';
  if (rel.startsWith('src/preload/')) return 'preload';
  if (rel.startsWith('src/renderer/')) return 'renderer';
  return 'other';
}

/**
 * What an import specifier points at.
 * @param {string} source
 * @param {string} file
 * @param {string} root
 * @returns {{ kind: 'builtin' } | { kind: 'electron' } | { kind: 'package', name: string } | { kind: 'file', layer: Layer }}
 */
export function targetOf(source, file, root) {
  if (source.startsWith('.') || path.isAbsolute(source)) {
    return { kind: 'file', layer: layerOf(path.resolve(path.dirname(file), source), root) };
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
 * @returns {string | null}
 */
export function violation(layer, target, isTest) {
  if (target.kind === 'package' && isTest && TEST_PACKAGES.has(target.name)) return null;
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
    case 'core':
      if (target.kind === 'electron') {
        return "only the Electron glue (src/main/electron) may import 'electron'";
      }
      if (target.kind === 'file' && !['core', 'shared'].includes(target.layer)) {
        return `src/main must not import from ${target.layer}`;
      }
      return null;
    case 'glue':
      if (target.kind === 'file' && !['core', 'glue', 'shared'].includes(target.layer)) {
        return `the Electron glue must not import from ${target.layer}`;
      }
      return null;
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
    if (layer === 'other') return {};
    const isTest = /\.test\.tsx?$/.test(file);

    /** @param {import('estree').Node | null | undefined} node */
    function check(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const reason = violation(layer, targetOf(node.value, file, root), isTest);
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
