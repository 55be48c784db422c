/**
 * Each setting is declared once, in the registry (src/shared/settings/): the schema is composed
 * from its entries, every entry is in the schema, each label names one setting and is written in
 * that one folder, and what an entry says of who may change it is what main enforces.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessOf } from '#shared/bridge/contract';
import { DEFAULT_SETTINGS, settingsSchema } from '#shared/settings-schema';
import { SETTINGS_PAGES } from '#shared/settings/pages';
import { settingAt, settingEntries } from '#shared/settings/registry';
import { sourceFiles } from '#support/button-names';
import { writtenStrings } from '#support/literal-strings';

const root = resolve(import.meta.dirname, '..');
const registryFolder = join(root, 'src', 'shared', 'settings');

/** The paths of every value the settings hold ('profiles.staging.baseUrl', 'shop.cashiers'). */
function leafPaths(value: unknown, path: readonly string[] = []): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [path.join('.')];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, [...path, key]));
}

/** Each registry label written as a whole string in a source file outside the registry. */
function labelCopies(files: readonly string[]): string[] {
  const labels = new Set(settingEntries().map(([, entry]) => entry.label));
  return files
    .filter((file) => !file.startsWith(registryFolder))
    .flatMap((file) =>
      writtenStrings(file)
        .filter((written) => labels.has(written.text))
        .map((written) => `${relative(root, file)}:${written.line} "${written.text}"`),
    );
}

describe('the settings registry', () => {
  it('declares every value the settings hold, and nothing they do not', () => {
    // Optional settings are absent from the defaults: give them a value to see their paths.
    const full = settingsSchema.parse({
      retention: { callbackRowDays: 365 },
      sounds: { voice: {} },
    });
    const held = leafPaths(full);
    expect(held.filter((path) => settingAt(path) === null)).toEqual([]);
    const declared = settingEntries().map(([path]) =>
      path.replace('profiles.*', 'profiles.staging'),
    );
    expect(declared.filter((path) => !held.includes(path))).toEqual([]);
    expect(leafPaths(DEFAULT_SETTINGS).length).toBeGreaterThan(40);
  });

  it('gives each setting its own label, on a page that exists', () => {
    const labels = settingEntries().map(([, entry]) => entry.label);
    expect(labels.filter((label, index) => labels.indexOf(label) !== index)).toEqual([]);
    const pages: readonly (string | null)[] = [...SETTINGS_PAGES.map((page) => page.id), null];
    for (const [path, entry] of settingEntries()) {
      expect(pages, path).toContain(entry.page);
    }
  });

  it('says who may change a setting as main enforces it: the channel that saves them', () => {
    for (const [path, entry] of settingEntries()) {
      expect(entry.role, path).toBe(accessOf('updateSettings'));
    }
  });

  it('is the one place a label is written: no other source file writes one whole', () => {
    const files = sourceFiles(join(root, 'src'));
    expect(files.some((file) => file.startsWith(registryFolder))).toBe(true);
    expect(labelCopies(files)).toEqual([]);
  });
});

/** docs/running.md's "applies when saved" rows as the registry says them: [settings, words]. */
function appliesRows(): (readonly [string, string])[] {
  const rows = new Map<string, string[]>();
  for (const [, entry] of settingEntries()) {
    const words =
      entry.applies === 'next-log-in' ? (entry.effect ?? 'at the next log-in') : entry.effect;
    if (words === undefined) continue;
    rows.set(words, [...(rows.get(words) ?? []), entry.label]);
  }
  return [
    ...[...rows].map(([words, labels]) => [labels.join(', '), words] as const),
    ['Every other setting', 'at once'] as const,
  ];
}

/** The rows of the table under the marker in docs/running.md, cells trimmed. */
function documentedRows(markdown: string): (readonly [string, string])[] {
  const start = markdown.indexOf('<!-- settings-applies');
  const lines = markdown
    .slice(start)
    .split('\n')
    .slice(1)
    .map((line) => line.trim());
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  const table = lines.slice(first, end);
  return table.slice(2).map((line) => {
    const [setting = '', words = ''] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim());
    return [setting, words] as const;
  });
}

describe("docs/running.md's table of when settings apply", () => {
  it('is the registry\'s: each setting with more to say than "at once", in its words', () => {
    const markdown = readFileSync(join(root, 'docs', 'running.md'), 'utf8');
    expect(markdown).toContain('<!-- settings-applies');
    expect(appliesRows().length).toBeGreaterThan(5);
    expect(documentedRows(markdown)).toEqual(appliesRows());
  });
});
