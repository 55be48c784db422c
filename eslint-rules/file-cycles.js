// @ts-check
// Import cycles between the files of src/. A runtime cycle (closed by value imports) makes one
// file's exports undefined while the other evaluates, depending on which is loaded first; the
// house fails on one. A cycle closed only through `import type` costs nothing at runtime, so it
// is reported, not refused.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { aliasesOf, targetOf } from './layering.js';

/**
 * @typedef {{ readonly to: string, readonly typeOnly: boolean }} Edge
 * @typedef {{ readonly runtime: readonly (readonly string[])[], readonly typeOnly: readonly (readonly string[])[] }} FileCycles
 */

const SOURCE = /\.(?:[cm]?ts|tsx)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '/index.ts', '/index.tsx'];

/**
 * The source files of src/ (tests included: a test file is imported by none, so it closes no
 * cycle), relative to root with forward slashes.
 * @param {string} root
 * @returns {string[]}
 */
function sourceFiles(root) {
  return readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((rel) => SOURCE.test(rel) && !rel.endsWith('.d.ts'))
    .map((rel) => path.posix.join('src', rel.split(path.sep).join('/')))
    .sort();
}

/**
 * The file an import names, if it is a source file of the project.
 * @param {string} source the import's module specifier
 * @param {string} file absolute path of the importing file
 * @param {string} root
 * @returns {string | null} the target relative to root
 */
function resolveImport(source, file, root) {
  if (targetOf(source, file, root).kind !== 'file') return null;
  const base = source.startsWith('.')
    ? path.resolve(path.dirname(file), source)
    : resolveAlias(source, root);
  if (base === null) return null;
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [base, ...EXTENSIONS.map((ext) => stem + ext)]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) {
      return path.relative(root, candidate).split(path.sep).join('/');
    }
  }
  return null;
}

/**
 * @param {string} source
 * @param {string} root
 * @returns {string | null}
 */
function resolveAlias(source, root) {
  for (const [prefix, folder] of aliasesOf(root)) {
    if (source.startsWith(prefix)) return path.resolve(root, folder, source.slice(prefix.length));
  }
  return null;
}

/**
 * Every import of one file with whether it is erased at runtime: `import type`, an import or
 * re-export whose every name is `type`, and `import('…')` written as a type.
 * @param {string} text
 * @param {string} fileName
 * @returns {{ readonly source: string, readonly typeOnly: boolean }[]}
 */
export function importsOf(text, fileName) {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {{ source: string, typeOnly: boolean }[]} */
  const found = [];
  /** @param {ts.Node} node */
  function visit(node) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ source: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const allTypes =
        clause !== undefined &&
        ts.isNamedExports(clause) &&
        clause.elements.length > 0 &&
        clause.elements.every((e) => e.isTypeOnly);
      found.push({ source: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allTypes });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ source: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ source: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  }
  visit(sourceFile);
  return found;
}

/** @param {ts.ImportDeclaration} node */
function importIsTypeOnly(node) {
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs x
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/**
 * The import graph of src/: file → the files it imports, each edge marked type-only or not
 * (a file imported both ways has a runtime edge).
 * @param {string} root
 * @returns {Map<string, Edge[]>}
 */
export function importGraph(root) {
  /** @type {Map<string, Edge[]>} */
  const graph = new Map();
  for (const rel of sourceFiles(root)) {
    const file = path.join(root, rel);
    /** @type {Map<string, boolean>} */
    const targets = new Map();
    for (const { source, typeOnly } of importsOf(readFileSync(file, 'utf8'), rel)) {
      const to = resolveImport(source, file, root);
      if (to === null || to === rel) continue;
      targets.set(to, (targets.get(to) ?? true) && typeOnly);
    }
    graph.set(
      rel,
      [...targets].map(([to, typeOnly]) => ({ to, typeOnly })),
    );
  }
  return graph;
}

/**
 * The runtime cycles (closed by value imports alone) and the type-only ones (groups of files that
 * form a cycle only when type imports count), each as the sorted files of one strongly connected
 * group.
 * @param {string} root
 * @returns {FileCycles}
 */
export function fileCycles(root) {
  const graph = importGraph(root);
  /** @param {boolean} withTypes */
  const next = (withTypes) =>
    new Map(
      [...graph].map(([from, edges]) => [
        from,
        edges.filter((e) => withTypes || !e.typeOnly).map((e) => e.to),
      ]),
    );
  const runtime = stronglyConnected(next(false));
  const seen = new Set(runtime.map((group) => group.join('\0')));
  const typeOnly = stronglyConnected(next(true)).filter((group) => !seen.has(group.join('\0')));
  return { runtime, typeOnly };
}

/**
 * The strongly connected groups of two or more nodes (Tarjan), each sorted: each is a cycle.
 * @param {ReadonlyMap<string, readonly string[]>} next
 * @returns {string[][]}
 */
export function stronglyConnected(next) {
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  /** @type {Set<string>} */ const onStack = new Set();
  /** @type {string[][]} */ const groups = [];
  /** @param {string} v */
  function visit(v) {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    /** @type {string[]} */
    const group = [];
    let w;
    do {
      w = stack.pop() ?? v;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  }
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * @param {FileCycles} cycles
 * @returns {string}
 */
export function renderFileCycles(cycles) {
  const lines = [`runtime import cycles between files: ${cycles.runtime.length}`];
  for (const group of cycles.runtime) lines.push(`  ${group.join(' ⇄ ')}`);
  lines.push(
    `type-only import cycles between files (reported, allowed): ${cycles.typeOnly.length}`,
  );
  for (const group of cycles.typeOnly) lines.push(`  ${group.join(' ⇄ ')}`);
  return lines.join('\n');
}
