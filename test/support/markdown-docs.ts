import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * What the documents' test reads from a Markdown file: its relative links and images, its
 * headings' anchors (GitHub's rule), and its runnable command blocks.
 */

/** The line before a fenced block that marks it runnable by the documents' test. */
export const RUNNABLE_MARKER = '<!-- runnable -->';

export interface MarkdownLink {
  readonly line: number;
  readonly target: string;
  readonly image: boolean;
}

export interface RunnableBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

export interface ParsedMarkdown {
  readonly links: readonly MarkdownLink[];
  readonly anchors: ReadonlySet<string>;
  readonly runnable: readonly RunnableBlock[];
  /** Problems with the runnable marker itself (a marker not followed by a ```sh block). */
  readonly markerProblems: readonly string[];
  readonly lineCount: number;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w-]*)/;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Inline code spans blanked out (same length), so a link inside backticks is not a link. */
function withoutCode(line: string): string {
  return line.replace(/(`+)(.+?)\1/g, (span) => ' '.repeat(span.length));
}

export function parseMarkdown(text: string): ParsedMarkdown {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const links: MarkdownLink[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const runnable: RunnableBlock[] = [];
  const markerProblems: string[] = [];
  let fence: { marker: string; line: number; runnable: boolean; body: string[] } | null = null;
  let previousNonBlank = '';
  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    const opening = FENCE.exec(line);
    if (fence) {
      if (opening && opening[1]?.startsWith(fence.marker) && opening[2] === '') {
        if (fence.runnable) runnable.push({ line: fence.line, code: fence.body.join('\n') });
        fence = null;
      } else {
        fence.body.push(line);
      }
      continue;
    }
    if (opening?.[1]) {
      const marked = previousNonBlank.trim() === RUNNABLE_MARKER;
      if (marked && opening[2] !== 'sh') {
        markerProblems.push(`line ${number}: a runnable block must be \`\`\`sh (got "${line}")`);
      }
      fence = {
        marker: opening[1],
        line: number,
        runnable: marked && opening[2] === 'sh',
        body: [],
      };
      previousNonBlank = line;
      continue;
    }
    if (previousNonBlank.trim() === RUNNABLE_MARKER && line.trim() !== '') {
      markerProblems.push(`line ${number}: ${RUNNABLE_MARKER} is not followed by a \`\`\`sh block`);
    }
    if (line.trim() !== '') previousNonBlank = line;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[2] !== undefined) {
      const base = headingAnchor(heading[2]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    const prose = withoutCode(line);
    for (const match of prose.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: number, target: match[2] ?? '', image: match[1] === '!' });
    }
    for (const match of prose.matchAll(/<img\s[^>]*src="([^"]+)"/g)) {
      links.push({ line: number, target: match[1] ?? '', image: true });
    }
  }
  if (fence) markerProblems.push(`line ${fence.line}: a fenced block is never closed`);
  return { links, anchors, runnable, markerProblems, lineCount: lines.length };
}

/**
 * The broken relative links of one document: a file that does not exist, or an anchor its
 * target document does not have. Web links and mail addresses are not followed.
 */
export function brokenLinks(root: string, file: string): string[] {
  const parsed = parseMarkdown(readFileSync(join(root, file), 'utf8'));
  const problems: string[] = [];
  for (const link of parsed.links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:, …
    const [path = '', anchor] = link.target.split('#', 2);
    const target = path === '' ? join(root, file) : join(root, dirname(file), decodeURI(path));
    const where = `${file}:${link.line}`;
    if (!existsSync(target)) {
      problems.push(
        `${where}: ${link.image ? 'image' : 'link'} ${link.target} (no file ${relative(root, target)})`,
      );
      continue;
    }
    if (anchor && target.endsWith('.md')) {
      const anchors = parseMarkdown(readFileSync(target, 'utf8')).anchors;
      if (!anchors.has(anchor)) {
        problems.push(
          `${where}: link ${link.target} (no heading #${anchor} in ${relative(root, target)})`,
        );
      }
    }
  }
  return problems;
}

/** A Markdown document named in the text (`CONTRACTS.md`, `docs/sandbox.md`, `../x.md`). */
const CITED_DOCUMENT = /(?<![\w./-])((?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.md)\b/g;

/**
 * What one document cites outside the repository, which a reader of a clone does not have: a
 * link or a named Markdown document above the repository's root, or a named document that no
 * file of the repository is. `repoDocuments` are the repository's .md files, relative to root.
 */
export function outsideCitations(
  root: string,
  file: string,
  repoDocuments: readonly string[],
): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const names = new Set(repoDocuments.map((doc) => doc.split('/').at(-1)));
  const outside = (path: string) =>
    relative(root, join(root, dirname(file), path)).startsWith('..');
  const problems = parseMarkdown(text)
    .links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target))
    .filter((link) => outside(decodeURI(link.target.split('#')[0] ?? '')))
    .map((link) => `${file}:${link.line}: link ${link.target} is outside the repository`);
  for (const [index, line] of text.split('\n').entries()) {
    for (const [, cited = ''] of line.matchAll(CITED_DOCUMENT)) {
      const where = `${file}:${index + 1}`;
      if (outside(cited)) {
        problems.push(`${where}: ${cited} is outside the repository`);
      } else if (
        !existsSync(join(root, dirname(file), cited)) &&
        !existsSync(join(root, cited)) &&
        !(!cited.includes('/') && names.has(cited))
      ) {
        problems.push(`${where}: ${cited} is not in the repository`);
      }
    }
  }
  return problems;
}
