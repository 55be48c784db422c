// The shop documents' test (docs/testing.md, "The shop documents' test"): every label a document
// written for the shop quotes in **bold** is a text the app can show, and no shop document holds
// a developer internal (a source path, SQL, a status code, ...).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEVELOPER_INTERNALS,
  developerInternals,
  quotedLabels,
  storeTablePatterns,
  type QuotedLabel,
} from '#support/shop-docs';
import { collectUiTexts, labelMatches, type UiText } from '#support/ui-strings';

const root = join(import.meta.dirname, '..');

/** The documents written for the shop (docs/README.md, "For the shop"). */
const SHOP_DOCUMENTS = [
  'docs/shop-guide.md',
  'docs/going-live.md',
  'docs/shop-hub.md',
  'docs/install.md',
  'docs/glossary.md',
] as const;

/** Where the app's on-screen words are written: the pages, the shared words, the desktop app. */
const UI_SOURCES = [
  'src/renderer/src',
  'src/shared',
  'src/main/electron',
  'src/main/desktop',
] as const;

const uiTexts: readonly UiText[] = collectUiTexts(root, UI_SOURCES);
const migrations = readdirSync(join(root, 'src/main/store/migrations'))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => readFileSync(join(root, 'src/main/store/migrations', name), 'utf8'));
const banned = [...DEVELOPER_INTERNALS, ...storeTablePatterns(migrations)];

function unknownLabels(markdown: string): QuotedLabel[] {
  return quotedLabels(markdown).filter(
    ({ label }) => !uiTexts.some((ui) => labelMatches(label, ui)),
  );
}

const read = (file: string): string => readFileSync(join(root, file), 'utf8');

describe('the shop documents', () => {
  it('read the app: its pages, shared words and menus give thousands of texts', () => {
    expect(uiTexts.length).toBeGreaterThan(1000);
    expect(uiTexts.some((ui) => ui.text === 'Customer says they paid')).toBe(true);
    expect(uiTexts.some((ui) => labelMatches('New sale for ₦700.00', ui))).toBe(true);
  });

  it.each(SHOP_DOCUMENTS)('%s quotes only labels the app shows', (file) => {
    expect(unknownLabels(read(file)).map(({ line, label }) => `${file}:${line} ${label}`)).toEqual(
      [],
    );
  });

  it.each(SHOP_DOCUMENTS)('%s holds no developer internals', (file) => {
    expect(
      developerInternals(read(file), banned).map(
        ({ line, name, text }) => `${file}:${line} ${name}: ${text}`,
      ),
    ).toEqual([]);
  });
});

describe('the shop documents test itself', () => {
  it('fails on a planted wrong label, and on the labels issue 32 found wrong', () => {
    const planted = [
      'Press **Customer says they paid** or **Customer says paid**.',
      'The **Wrong amount rejected** line, **Save shared sandbox**, **Test connection**.',
      'Copy it into **Payout account ID** on Settings → **Connect provider** → **The shops own address**.',
      'Settings → **Hub settings**; a till opens **Open customer display**.',
      'Type **New sale for ₦700.00** or **New sale for**.',
      'Across a line: **Yes, cancel',
      'the sale** and **Yes, cancel\nthe sale now**.',
    ].join('\n');
    expect(unknownLabels(planted).map((q) => q.label)).toEqual([
      'Customer says paid',
      'Wrong amount rejected',
      'Save shared sandbox',
      'Payout account ID',
      'The shops own address',
      'Hub settings',
      'New sale for',
      'Yes, cancel the sale now',
    ]);
  });

  it('ignores labels in code, and splits a path into its steps', () => {
    expect(quotedLabels('`**not a label**`\n```\n**nor this**\n```\n**A → B**')).toEqual([
      { line: 5, label: 'A' },
      { line: 5, label: 'B' },
    ]);
  });

  it('finds each kind of planted developer internal, and none in shop words', () => {
    const planted = [
      'It lives in `src/main/sync/sync.ts`.',
      'See sale-handlers.ts for that.',
      'Run `SELECT raw FROM inflows WHERE id = 1`.',
      'Kept in callback_log until read.',
      'Written with WAL on.',
      'Stored as salted scrypt hashes.',
      'The button has data-testid="x".',
      'Migration 005 adds it.',
      'The provider answered 404.',
      'The last X-Forwarded-For entry.',
      'Compared in constant time.',
      'It answers `FORBIDDEN`.',
      'The channel `createSale`.',
      'The key `hub.lanPort`.',
      'POST to /api/call/getHub.',
    ];
    const found = planted.map((line) => developerInternals(line, banned).map((f) => f.name));
    expect(found.map((names) => names.length > 0)).toEqual(planted.map(() => true));
    const shopWords = [
      'Ask the provider for ₦500 or ₦404,000 and keep `pins.json` safe.',
      'Sales and alerts are listed in Activity; wait 404 seconds.',
      'Open `transfer-till-2026-11-22.csv` in Excel.',
    ];
    expect(shopWords.flatMap((line) => developerInternals(line, banned))).toEqual([]);
  });
});
