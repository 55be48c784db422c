/**
 * What a built bundle loads at run time: the specifiers of its static imports and re-exports,
 * dynamic imports, require() calls and require.resolve / createRequire(…).resolve calls, read
 * from its syntax tree (Vite's own parser), not guessed with a pattern. A dynamic import or
 * require of a computed name cannot be checked: it is reported as such.
 */
import { isBuiltin } from 'node:module';
import { parseSync, Visitor, type ESTree } from 'vite';

export interface BundleImports {
  readonly specifiers: readonly string[];
  /** Source text of each import()/require() whose argument is not a string literal. */
  readonly computed: readonly string[];
}

function literal(node: ESTree.Expression | ESTree.SpreadElement | undefined): string | null {
  return node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
}

/** Names a bundle calls require by: Node's, and the shim Rolldown writes into ESM output. */
const REQUIRE_NAMES = ['require', '__require'];

/** require('x'), require.resolve('x') and createRequire(…).resolve('x'). */
function isRequireLike(callee: ESTree.Expression): boolean {
  if (callee.type === 'Identifier') return REQUIRE_NAMES.includes(callee.name);
  if (callee.type !== 'MemberExpression' || callee.computed) return false;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'resolve') return false;
  const object = callee.object;
  if (object.type === 'Identifier') return REQUIRE_NAMES.includes(object.name);
  return (
    object.type === 'CallExpression' &&
    object.callee.type === 'Identifier' &&
    object.callee.name === 'createRequire'
  );
}

export function bundleImports(fileName: string, code: string): BundleImports {
  const parsed = parseSync(fileName, code);
  if (parsed.errors.length > 0) {
    throw new Error(`${fileName} does not parse: ${parsed.errors[0]?.message ?? ''}`);
  }
  const specifiers = new Set<string>();
  const computed: string[] = [];
  const add = (source: ESTree.Expression | ESTree.SpreadElement | undefined, node: ESTree.Span) => {
    const name = literal(source);
    if (name === null) computed.push(code.slice(node.start, node.end));
    else specifiers.add(name);
  };
  new Visitor({
    ImportDeclaration: (node) => void specifiers.add(node.source.value),
    ExportAllDeclaration: (node) => void specifiers.add(node.source.value),
    ExportNamedDeclaration: (node) => {
      if (node.source) specifiers.add(node.source.value);
    },
    ImportExpression: (node) => add(node.source, node),
    CallExpression: (node) => {
      if (isRequireLike(node.callee)) add(node.arguments[0], node);
    },
  }).visit(parsed.program);
  return { specifiers: [...specifiers].sort(), computed };
}

/** 'pkg/sub/path' → 'pkg'; '@scope/pkg/sub' → '@scope/pkg'; null for relative or absolute paths. */
export function packageOf(specifier: string): string | null {
  if (/^[./]|^[a-z]+:/i.test(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/**
 * The packages a bundle loads that `dependencies` does not list (electron-builder packs only
 * those): Node's built-ins and the names in `provided` (the runtime's own, e.g. 'electron')
 * excepted. Relative files and computed names are reported too: a packaged app cannot be
 * trusted to find them.
 */
export function undeclaredImports(
  imports: BundleImports,
  dependencies: Readonly<Record<string, string>>,
  provided: readonly string[],
): readonly string[] {
  const missing = new Set<string>();
  for (const specifier of imports.specifiers) {
    if (isBuiltin(specifier) || provided.includes(specifier)) continue;
    const name = packageOf(specifier);
    if (name === null) missing.add(`${specifier} (a file outside the bundle)`);
    else if (!Object.hasOwn(dependencies, name)) missing.add(name);
  }
  for (const text of imports.computed) missing.add(`${text} (a computed name)`);
  return [...missing].sort();
}
