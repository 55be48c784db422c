/**
 * The report screen, its PDF and its CSV give one answer to "does this need a person?" for each
 * kind of exception, end to end: a real day of exceptions (test/support/exception-day.ts) in the
 * till's own SQLite file, the browser shell, real Chromium. The screen is read by its sections,
 * the PDF (pdftotext) by its headings and status lines, the CSV by its resolution column; each
 * answer is checked against the other two and against report-words' one table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXCEPTION_CATEGORY,
  FOR_INFORMATION_HEADING,
  NEEDS_A_PERSON_HEADING,
  STATUS_CELL,
  STATUS_LINE,
  exceptionTitle,
} from '#shared/report-words';
import type { ExceptionKind } from '#shared/views';
import { tillDbPath } from '#main/config/data-files';
import { openDatabase } from '#main/store/database';
import { EXCEPTION_DAY, seedExceptionDay } from '#support/exception-day';
import { parseCsv } from '#support/parse-csv';
import { E2E_ARTIFACTS, startReportTill, type ReportTill } from '#support/report-till';
import { pdfText } from '#support/pdf-text';

const artifacts = E2E_ARTIFACTS;
const SETTLE_MS = 10_000;

type Answer = 'person' | 'information';

/** The kind an exception's title names (either wording of a waiting sale). */
function kindOfTitle(title: string): ExceptionKind | undefined {
  const kinds = Object.keys(EXCEPTION_CATEGORY) as ExceptionKind[];
  return kinds.find((kind) =>
    [exceptionTitle(kind, true), exceptionTitle(kind, false)].some((words) =>
      title.startsWith(words),
    ),
  );
}

function expected(kind: ExceptionKind): Answer {
  return EXCEPTION_CATEGORY[kind] === 'information' ? 'information' : 'person';
}

async function saved(download: Download): Promise<Buffer> {
  const file = join(dataDir, download.suggestedFilename());
  await download.saveAs(file);
  return readFileSync(file);
}

/** The screen's answer per kind: the section each exception is listed in. */
async function screenAnswers(page: Page): Promise<Map<ExceptionKind, Answer>> {
  const answers = new Map<ExceptionKind, Answer>();
  const sections: readonly [string, Answer][] = [
    ['report-exceptions', 'person'],
    ['report-information', 'information'],
  ];
  for (const [testId, answer] of sections) {
    const list = page.getByTestId(testId);
    if ((await list.count()) === 0) continue;
    for (const title of await list.locator(':scope > li > strong').allTextContents()) {
      const kind = kindOfTitle(title.trim());
      if (kind) answers.set(kind, answer);
    }
  }
  return answers;
}

/**
 * The PDF's answer per kind: the heading an exception's title follows, and its status line (a
 * person's open case says "Open", information says nobody needs to act).
 */
function pdfAnswers(text: string): Map<ExceptionKind, Answer> {
  const answers = new Map<ExceptionKind, Answer>();
  let section: Answer | null = null;
  let pending: ExceptionKind | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith(`${NEEDS_A_PERSON_HEADING} (`)) section = 'person';
    else if (line.startsWith(`${FOR_INFORMATION_HEADING} (`)) section = 'information';
    else if (/^Successful by hour/.test(line)) section = null;
    if (section === null) continue;
    const kind = kindOfTitle(line.replace(/^Error: /, ''));
    if (kind && line.includes(' · ')) pending = kind;
    const status: Answer | null = line.startsWith(STATUS_LINE.open)
      ? 'person'
      : line.startsWith(STATUS_LINE.information)
        ? 'information'
        : null;
    if (pending && status) {
      // The section and the status line must say the same; a disagreement shows as 'mixed'.
      answers.set(pending, status === section ? status : ('mixed' as Answer));
      pending = null;
    }
  }
  return answers;
}

/** The CSV's answer per kind: its resolution cell, "Open" or "For information". */
function csvAnswers(csv: string): Map<ExceptionKind, Answer> {
  const [header, ...rows] = parseCsv(csv);
  const exceptionAt = header?.indexOf('exception') ?? -1;
  const resolutionAt = header?.indexOf('resolution') ?? -1;
  const answers = new Map<ExceptionKind, Answer>();
  for (const row of rows) {
    const kind = kindOfTitle(row[exceptionAt] ?? '');
    const cell = row[resolutionAt];
    if (!kind || !cell) continue;
    if (cell === STATUS_CELL.open) answers.set(kind, 'person');
    else if (cell === STATUS_CELL.information) answers.set(kind, 'information');
  }
  return answers;
}

let counter: ReportTill;
let dataDir: string;
let till: Page;
let problems: string[];

beforeAll(async () => {
  counter = await startReportTill('report-agreement', {
    prepare: (dataDir) => {
      // The till's own database file, migrated and seeded before the shell opens it.
      const db = openDatabase({ path: tillDbPath(dataDir, 'sandbox') });
      seedExceptionDay(db);
      db.close();
    },
  });
  ({ dataDir, till, problems } = counter);
});

afterAll(async () => {
  await counter?.stop();
});

describe('report, PDF and CSV agree on who must act', () => {
  it('gives each exception kind of a real day the same answer in all three', async () => {
    await till.getByRole('link', { name: 'Report', exact: true }).click();
    await till.locator('input[type="date"]').fill(EXCEPTION_DAY);
    await till.getByTestId('report-exceptions').waitFor({ timeout: SETTLE_MS });
    const screen = await screenAnswers(till);

    const [pdf] = await Promise.all([
      till.waitForEvent('download'),
      till.getByRole('button', { name: 'Save as PDF' }).click(),
    ]);
    const pdfByKind = pdfAnswers(pdfText(await saved(pdf)));

    const [csv] = await Promise.all([
      till.waitForEvent('download'),
      till.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csvByKind = csvAnswers((await saved(csv)).toString('utf8'));

    // The day holds a kind of each answer: open cases for a person, and information.
    const kinds: readonly ExceptionKind[] = [
      'paid_late',
      'unmatched_inflow',
      'open_at_cutoff',
      'wrong_amount',
    ];
    for (const kind of kinds) {
      const answers = {
        screen: screen.get(kind),
        pdf: pdfByKind.get(kind),
        csv: csvByKind.get(kind),
      };
      expect(answers, kind).toEqual({
        screen: expected(kind),
        pdf: expected(kind),
        csv: expected(kind),
      });
    }
    await till
      .getByTestId('report-exceptions')
      .screenshot({ path: join(artifacts, 'report-agreement.png') });
    expect(problems).toEqual([]);
  });
});
