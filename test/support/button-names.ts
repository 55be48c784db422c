/**
 * Buttons named in messages, and the buttons that exist, read from the source's syntax trees
 * (TypeScript's own parser), for test/button-names.test.ts.
 *
 * The convention a message follows to name a button: a verb of pressing (press, choose, click,
 * tap) and the button's exact label in double quotes: `press "Customer says they paid"` in a
 * TypeScript string, `press “Check everything”` in JSX text. A `${…}` inside a name stands for
 * any text (a version number, an amount).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface NamedButton {
  readonly name: string;
  readonly file: string;
}

const NAMED = /\b(?:press|choose|click|tap)(?:es|ing)? (?:"|“)([^"”\n]{1,80})(?:"|”)/gi;

/** Every non-test .ts/.tsx file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function parse(file: string): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** The text of a string, template or JSX text node as written (a template keeps its `${…}`). */
function textOf(node: ts.Node, source: ts.SourceFile): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.getText(source).slice(1, -1);
  if (ts.isJsxText(node)) return node.text.replace(/\s+/g, ' ');
  return null;
}

/** Every button name the messages of these files quote. */
export function namedButtons(files: readonly string[], root: string): NamedButton[] {
  const found: NamedButton[] = [];
  for (const file of files) {
    const source = parse(file);
    walk(source, (node) => {
      const text = textOf(node, source);
      if (text === null) return;
      for (const match of text.matchAll(NAMED)) {
        found.push({ name: match[1] ?? '', file: relative(root, file) });
      }
    });
  }
  return found;
}

/** Components that render their `label` prop as a button's text. */
const LABELLED_BUTTONS = new Set(['ActionRow']);

/** The texts inside an element: its JSX text and the strings of its expressions. */
function innerTexts(node: ts.Node, source: ts.SourceFile): string[] {
  const texts: string[] = [];
  walk(node, (inner) => {
    const text = textOf(inner, source)?.trim();
    if (text) texts.push(text);
  });
  return texts;
}

/**
 * Every label a button of the renderer can show: the text of each <button> element (its JSX
 * text, the strings in its expressions, its aria-label), and the label of components that
 * render one (ActionRow); the label of a radio button or checkbox (it is chosen by it).
 */
export function rendererButtonLabels(files: readonly string[]): Set<string> {
  const labels = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.tsx'))) {
    const source = parse(file);
    walk(source, (node) => {
      if (ts.isJsxElement(node) && node.openingElement.tagName.getText(source) === 'button') {
        for (const text of innerTexts(node, source)) labels.add(text);
      }
      // A radio button or a checkbox is chosen by its label's text.
      if (ts.isJsxElement(node) && isChoiceLabel(node, source)) {
        for (const text of innerTexts(node, source)) labels.add(text);
      }
      if (ts.isJsxOpeningLikeElement(node)) {
        const tag = node.tagName.getText(source);
        for (const attribute of node.attributes.properties) {
          if (!ts.isJsxAttribute(attribute) || !attribute.initializer) continue;
          const name = attribute.name.getText(source);
          const wanted =
            (tag === 'button' && name === 'aria-label') ||
            (LABELLED_BUTTONS.has(tag) && name === 'label');
          if (wanted)
            for (const text of innerTexts(attribute.initializer, source)) labels.add(text);
        }
      }
    });
  }
  return labels;
}

function isChoiceLabel(node: ts.JsxElement, source: ts.SourceFile): boolean {
  if (node.openingElement.tagName.getText(source) !== 'label') return false;
  let choice = false;
  walk(node, (inner) => {
    if (!ts.isJsxSelfClosingElement(inner) || inner.tagName.getText(source) !== 'input') return;
    choice ||= inner.attributes.properties.some(
      (attribute) =>
        ts.isJsxAttribute(attribute) &&
        attribute.name.getText(source) === 'type' &&
        /^["'](radio|checkbox)["']$/.test(attribute.initializer?.getText(source) ?? ''),
    );
  });
  return choice;
}

/** The labels of the desktop app's tray menu items (`label:` of its menu entries). */
export function trayMenuLabels(files: readonly string[]): Set<string> {
  const labels = new Set<string>();
  for (const file of files) {
    const source = parse(file);
    walk(source, (node) => {
      if (!ts.isPropertyAssignment(node) || node.name.getText(source) !== 'label') return;
      const text = textOf(node.initializer, source);
      if (text) labels.add(text);
    });
  }
  return labels;
}

/** Whether a quoted name is one of the labels; `${…}` on either side stands for any text. */
export function nameMatches(name: string, labels: ReadonlySet<string>): boolean {
  const pattern = (text: string) =>
    new RegExp(
      `^${text
        .split(/\$\{[^}]*\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+')}$`,
    );
  const wanted = pattern(name);
  const sample = (label: string) => label.replace(/\$\{[^}]*\}/g, 'X1');
  return [...labels].some((label) => wanted.test(sample(label)) || pattern(label).test(name));
}
