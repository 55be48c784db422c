import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The words the app can put on screen, read from its source: every string literal, every
 * template literal (its `${…}` parts as a wildcard) and the text of every JSX element (its
 * `{…}` children as a wildcard, nested elements by their own text). The shop documents' test
 * checks each label a shop document quotes against these.
 */

/** Stands for a part the app fills in at run time (an amount, a name, a number). */
export const FILLED_IN = '\u0000';

export interface UiText {
  /** The text, with FILLED_IN where the app fills something in. */
  readonly text: string;
  /** Where it was found, for messages: `<path>:<line>`. */
  readonly where: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

const squeeze = (text: string): string => text.replace(/\s+/g, ' ');

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  apos: "'",
  quot: '"',
  lt: '<',
  gt: '>',
  nbsp: ' ',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  hellip: '…',
  mdash: '—',
  ndash: '–',
};

/** JSX text as the page shows it: its HTML entities decoded. */
const decoded = (text: string): string =>
  text.replace(/&(\w+);/g, (entity, name: string) => ENTITIES[name] ?? entity);

/** Curly and straight quotes read the same: a document types straight ones. */
const straightQuotes = (text: string): string => text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');

function jsxText(node: ts.JsxElement | ts.JsxFragment): string {
  return node.children
    .map((child) => {
      if (ts.isJsxText(child)) return squeeze(decoded(child.text));
      if (ts.isJsxElement(child) || ts.isJsxFragment(child)) return jsxText(child);
      if (ts.isJsxSelfClosingElement(child)) return ' ';
      const expression = child.expression;
      if (expression === undefined) return '';
      if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
        return expression.text;
      }
      return FILLED_IN;
    })
    .join('')
    .trim();
}

function templateText(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span) => FILLED_IN + span.literal.text).join('');
}

/** Every on-screen text candidate in the files under `dirs` (relative to `root`). */
export function collectUiTexts(root: string, dirs: readonly string[]): UiText[] {
  const found: UiText[] = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const add = (node: ts.Node, text: string): void => {
      const trimmed = straightQuotes(squeeze(text)).trim();
      // A text that is mostly filled in (`${a} ${b}`) says nothing a label could be checked by.
      const fixed = trimmed.split(FILLED_IN).join('');
      if (trimmed.includes(FILLED_IN) && (fixed.match(/\p{L}/gu) ?? []).length < 3) return;
      if (trimmed === '') return;
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push({ text: trimmed, where: `${relative(root, file)}:${line}` });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        add(node, node.text);
      } else if (ts.isTemplateExpression(node)) {
        add(node, templateText(node));
      } else if (ts.isJsxElement(node) || ts.isJsxFragment(node)) {
        add(node, jsxText(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const patterns = new Map<string, RegExp>();

/** An app's text as a pattern: its filled-in parts match anything. */
function appPattern(text: string): RegExp {
  let pattern = patterns.get(text);
  if (!pattern) {
    pattern = new RegExp(`^${text.split(FILLED_IN).map(escape).join('.+')}$`, 'u');
    patterns.set(text, pattern);
  }
  return pattern;
}

/** True when a document's label can be one of the app's texts: the whole text, not a part. */
export function labelMatches(quoted: string, ui: UiText): boolean {
  const label = straightQuotes(quoted);
  // The app's filled-in parts match anything in the label ...
  const fromApp = appPattern(ui.text);
  // A text that is mostly filled in (`${a} and ${b}`) matches only a label it mostly spells.
  const fixedLength = ui.text.split(FILLED_IN).join('').length;
  if (fromApp.test(label) && fixedLength * 2 >= label.length) return true;
  // ... and a document's "…" stands for anything the app fills in or says there.
  if (!label.includes('…')) return false;
  const fromDoc = new RegExp(`^${label.split('…').map(escape).join('[^]*')}$`, 'u');
  return fromDoc.test(ui.text);
}
