import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** A string written in a source file: a literal, a template without `${…}`, or JSX text. */
export interface WrittenString {
  readonly text: string;
  readonly line: number;
}

/** Every whole string a file writes (trimmed JSX text included), with its line. */
export function writtenStrings(file: string): readonly WrittenString[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    kind,
  );
  const found: WrittenString[] = [];
  const visit = (node: ts.Node): void => {
    const text =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isJsxText(node)
          ? node.text.trim()
          : null;
    if (text) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ text, line });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}
