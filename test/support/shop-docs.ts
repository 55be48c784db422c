/**
 * What the shop documents' test reads from a document written for the shop: the on-screen labels
 * it quotes, and any developer internals it holds.
 *
 * The convention (docs/README.md): a shop document writes a label the app shows (a button, a
 * field, a tab, a screen, a menu entry, a banner) in **bold**, exactly as the screen has it;
 * "…" stands for what the app fills in (an amount, a name) and " → " separates the steps of a
 * path (**Settings → Shop hub**). Emphasis is written in _italics_, never bold.
 */

export interface QuotedLabel {
  readonly line: number;
  readonly label: string;
}

const FENCE = /^\s*(```|~~~)/;

/** The bold spans of a document outside code (a span may wrap lines), each path step on its own. */
export function quotedLabels(markdown: string): QuotedLabel[] {
  let inFence = false;
  // Code blocks and code spans blanked out, line for line, so that nothing in code counts.
  const prose = markdown
    .split('\n')
    .map((line) => {
      if (FENCE.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/(`+)(.+?)\1/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
  const labels: QuotedLabel[] = [];
  for (const match of prose.matchAll(/\*\*([^*]+?)\*\*/g)) {
    const line = prose.slice(0, match.index).split('\n').length;
    for (const step of (match[1] ?? '').split(' → ')) {
      labels.push({ line, label: step.replace(/\s+/g, ' ').trim() });
    }
  }
  return labels;
}

export interface BannedPattern {
  readonly name: string;
  readonly pattern: RegExp;
}

/**
 * Developer internals a shop document must not hold; they belong in the developer documents
 * (architecture, running, testing, http-bridge, payments, sandbox).
 */
export const DEVELOPER_INTERNALS: readonly BannedPattern[] = [
  { name: 'a source path', pattern: /\b(?:src|test|bench|scripts)\/[\w./-]+/ },
  { name: 'a source file', pattern: /\b[\w-]+\.(?:tsx?|mjs|cjs)\b/ },
  {
    name: 'SQL',
    pattern: /\b(?:SELECT|INSERT|UPDATE|DELETE)\b.*\b(?:FROM|INTO|SET|WHERE)\b|\bsqlite3?\b|PRAGMA/,
  },
  { name: 'WAL', pattern: /\bWAL\b|synchronous=/ },
  { name: 'a password hash', pattern: /\bscrypt\b|\bHMAC\b/i },
  { name: 'a data-testid', pattern: /data-testid/ },
  { name: 'a migration number', pattern: /\bmigration \d+/i },
  {
    name: 'an HTTP status code',
    pattern:
      /\b(?:HTTP|status|answers?|answered|a|an)\s+[1-5]\d\d\b|\b[1-5]\d\d\s+(?:Not Found|Conflict|Bad Request|Unauthorized|Forbidden|Request Timeout)\b|\b(?:[45]\d\d\/)+[45]\d\d\b/i,
  },
  { name: 'X-Forwarded-For', pattern: /X-Forwarded-For/i },
  { name: '"constant time"', pattern: /constant time/i },
  { name: 'a request header', pattern: /\bx-till-session\b|\bAuthorization:/i },
  { name: 'an error code', pattern: /`[A-Z]+(?:_[A-Z0-9]+)+`|`(?:FORBIDDEN|INTERNAL)`/ },
  { name: 'a channel name', pattern: /`[a-z]+[A-Z]\w*`/ },
  {
    name: 'a settings key',
    pattern: /`[a-z]+\.(?!(?:json|csv|pdf|log|exe|dmg|deb|AppImage)`)[a-z][\w.]*`/,
  },
  { name: 'a bridge path', pattern: /\/api\/(?:call|events|pair)\b/ },
  { name: 'a provider endpoint', pattern: /\/virtual\/|GET \/|POST \// },
  { name: 'a build tool', pattern: /\belectron-vite\b|\bnode_modules\b|\bnpm package\b/ },
  { name: 'a crypto detail', pattern: /\bCrockford\b|\bECDSA\b|\bP-256\b|\b\d+-bit\b/ },
  { name: 'a file format rule', pattern: /\bRFC \d+\b|\bEF BB BF\b|\bCRLF\b/ },
];

/** The store's tables, read from its migrations: a shop document never names one. */
export function storeTablePatterns(migrationSources: readonly string[]): BannedPattern[] {
  const tables = new Set(
    migrationSources.flatMap((text) =>
      [...text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((match) => match[1] ?? ''),
    ),
  );
  return [...tables].map((table) => ({
    name: `the store's table ${table}`,
    // A one-word table (sales, alerts) is only a table when written as code.
    pattern: table.includes('_') ? new RegExp(`\\b${table}\\b`) : new RegExp(`\`${table}\``),
  }));
}

export interface InternalFound {
  readonly line: number;
  readonly name: string;
  readonly text: string;
}

/** Every line of a shop document that holds a developer internal, with what it holds. */
export function developerInternals(
  markdown: string,
  banned: readonly BannedPattern[] = DEVELOPER_INTERNALS,
): InternalFound[] {
  return markdown.split('\n').flatMap((text, index) =>
    banned
      .filter(({ pattern }) => pattern.test(text))
      .map(({ name }) => ({
        line: index + 1,
        name,
        text: text.trim(),
      })),
  );
}
