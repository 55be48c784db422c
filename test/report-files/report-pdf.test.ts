/**
 * "Save as PDF" from a seeded store, read back with Debian's pdftotext: the file carries the
 * figures of the report the screen shows (the same buildZReport), in the screen's words, with
 * "₦" set in an embedded font and a page number on every page.
 */
import { describe, expect, it } from 'vitest';
import { formatNaira } from '#shared/money';
import {
  EXCEPTION_WORDS,
  describeLastSync,
  STATUS_LINE,
  describeResolution,
  exceptionStatus,
  hourLabel,
  needsAPerson,
} from '#shared/report-words';
import type { ZReportView } from '#shared/views';
import { referencePrefix } from '#shared/till-id';
import { createReferenceGenerator } from '#main/provider/references';
import { resolveException } from '#main/reports/exception-resolutions';
import { buildPdfExport } from '#main/reports/pdf/pdf-export';
import { ENVIRONMENT_ON_PAPER } from '#main/reports/pdf/report-pdf';
import {
  insertCompleteSyncRun,
  insertStandingAccounts,
  insertInflowRow,
  nextSessionId,
} from '#support/shop-history';
import { buildZReport } from '#main/reports/z-report';
import type { Db } from '#main/store/database';
import { createTestDb } from '#support/database';
import { EXCEPTION_DAY_RANGE, EXCEPTION_DAY_START, seedExceptionDay } from '#support/exception-day';
import { pdfText } from '#support/pdf-text';

const HOUR = 3_600_000;
const NOW = EXCEPTION_DAY_START + 30 * HOUR;
const TILL_ID = 'till-A';
const SHOP = 'Ọlá Stores & Sons';
const BANK_REFERENCE = 'FT2611220099';

/** pdftotext's text as one line of prose: words a line break split are joined again. */
function prose(text: string): string {
  return text.replace(/-[ \t]*\n\s*/g, '-').replace(/\s+/g, ' ');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A table row as pdftotext -layout keeps it: its cells on one line, in order. */
function rowPattern(...cells: readonly string[]): RegExp {
  return new RegExp(cells.map(escape).join('\\s+'));
}

/** The exception day plus what the shop view needs: counter money, another till, a pending one. */
function seedShopDay(db: Db): void {
  const day = seedExceptionDay(db);
  const at = (hours: number) => EXCEPTION_DAY_START + hours * HOUR;
  const [counterId] = insertStandingAccounts(db, at(8));
  insertInflowRow(
    db,
    {
      sessionId: nextSessionId(),
      reference: 'CTR-FLEX-1',
      amountKobo: 42_000,
      status: 'success',
      occurredAt: at(15),
      saleId: null,
      listed: true,
      accountId: counterId ?? null,
    },
    at(15),
  );
  const otherTill = createReferenceGenerator({
    prefix: referencePrefix('till-b9q3'),
    clock: () => at(16),
  });
  insertInflowRow(
    db,
    {
      sessionId: nextSessionId(),
      reference: otherTill.next(),
      amountKobo: 1_234_56,
      status: 'success',
      occurredAt: at(16),
      saleId: null,
      listed: true,
    },
    at(16),
  );
  insertInflowRow(
    db,
    {
      sessionId: nextSessionId(),
      reference: 'TILLA-PENDING',
      amountKobo: 9_900,
      status: 'pending',
      occurredAt: at(17),
      saleId: null,
      listed: true,
    },
    at(17),
  );
  resolveException(
    db,
    {
      key: `paid_late:sale:${day.paidLateSaleId}`,
      action: 'refunded',
      bankReference: BANK_REFERENCE,
      note: 'Customer came back; refunded in full',
    },
    'Ada',
    at(19),
  );
  insertCompleteSyncRun(db, at(20), 9);
}

async function exportDay(db: Db) {
  const options = { ...EXCEPTION_DAY_RANGE, tillId: TILL_ID, now: NOW };
  const report: ZReportView = buildZReport(db, options);
  const file = await buildPdfExport(db, { ...options, shopName: SHOP, environment: 'sandbox' });
  const bytes = Buffer.from(file.base64, 'base64');
  return { report, file, bytes, text: pdfText(bytes) };
}

describe('the end-of-day report as a PDF', () => {
  it('carries the screen figures of a seeded day, read back with pdftotext', async () => {
    const { db } = createTestDb();
    seedShopDay(db);
    const { report, file, bytes, text } = await exportDay(db);

    expect(file.filename).toBe('transfer-till-2026-11-22.pdf');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const flat = prose(text);

    // The heading: shop (its own letters), till, environment in words, period and last sync.
    expect(text).toContain('End-of-day report');
    expect(flat).toContain(`${SHOP} · till ${TILL_ID} · ${ENVIRONMENT_ON_PAPER.sandbox}`);
    expect(flat).toContain(prose(describeLastSync(report.lastSync, report.timeZone)));
    expect(report.lastSync?.status).toBe('complete');

    // The headline, as the screen's report-success-count/amount and the other figures.
    const money = (total: { count: number; amountKobo: number }) => [
      String(total.count),
      formatNaira(total.amountKobo),
    ];
    expect(report.success.count).toBe(5);
    expect(text).toMatch(
      rowPattern('Successful (all tills and accounts)', ...money(report.success)),
    );
    expect(text).toMatch(rowPattern('Not completed', ...money(report.failed)));
    expect(text).toMatch(rowPattern('Pending', ...money(report.pending)));
    expect(report.pending.count).toBe(1);

    // The shop view: this till, other tills (each), standing accounts, shop total, not ours.
    const { shop } = report;
    expect(shop.otherTills).toHaveLength(1);
    expect(text).toMatch(
      rowPattern(
        `This till · ${TILL_ID} (references ${shop.tillPrefix}-…)`,
        ...money(shop.thisTill),
      ),
    );
    expect(text).toMatch(rowPattern('Other tills of this shop', ...money(shop.otherTills[0]!)));
    expect(text).toMatch(
      rowPattern(`Till ${shop.otherTills[0]!.tillPrefix} · another till of this shop`),
    );
    expect(text).toMatch(rowPattern('Standing accounts', ...money(shop.standingAccounts)));
    expect(shop.standingAccounts.amountKobo).toBe(42_000);
    expect(text).toMatch(rowPattern('Shop total', ...money(shop.shopTotal)));
    expect(flat).toContain(
      `Not made by any till of this shop: 1 transfer, ${formatNaira(shop.notOurs.amountKobo)}`,
    );

    // By hour (busy hours only) and by till and cashier.
    const busy = report.byHour.filter((row) => row.count > 0);
    expect(busy.length).toBeGreaterThanOrEqual(4);
    for (const row of busy) expect(text).toMatch(rowPattern(hourLabel(row.hour), ...money(row)));
    expect(report.byTill.length).toBeGreaterThan(0);
    for (const row of report.byTill) {
      expect(text).toMatch(
        rowPattern(
          row.tillId ?? '—',
          row.cashier ?? '—',
          String(row.count),
          formatNaira(row.amountKobo),
        ),
      );
    }

    // Every exception with what to do, and its resolution (or that it is open).
    const forPerson = report.exceptions.filter((e) => needsAPerson(e.kind));
    expect(flat).toContain(`Needs a person (${forPerson.length})`);
    const information = report.exceptions.length - forPerson.length;
    if (information > 0) expect(flat).toContain(`For information (${information})`);
    expect(report.exceptions.length).toBe(4);
    for (const exception of report.exceptions) {
      expect(flat).toContain(EXCEPTION_WORDS[exception.kind]);
      expect(flat).toContain(prose(exception.message));
      expect(flat).toContain(prose(`What to do: ${exception.action}`));
    }
    const late = report.exceptions.find((e) => e.kind === 'paid_late');
    expect(late?.resolution?.bankReference).toBe(BANK_REFERENCE);
    expect(flat).toContain(
      prose(`Resolved: ${describeResolution(late!.resolution!, report.timeZone)}`),
    );
    expect(flat).toContain('Note: Customer came back; refunded in full');
    // Open only what a person must act on; information says nobody needs to (report-words).
    const open = report.exceptions.filter((e) => exceptionStatus(e) === 'open').length;
    expect(open).toBe(2);
    expect(flat.split(STATUS_LINE.open)).toHaveLength(open + 1);
    expect(flat.split(STATUS_LINE.information)).toHaveLength(information + 1);

    // "₦" is real text in an embedded font (PDF's built-in fonts have no Naira sign).
    expect(text).toContain('₦');
    const raw = bytes.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(raw).toContain('/FontFile2');
    expect(raw).not.toContain('Helvetica');

    // A4, a page number on every page.
    expect(raw).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages).toHaveLength(file.pages);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${file.pages}`));
  });

  it('flows a long day over numbered pages, repeating the table header, losing no line', async () => {
    const { db } = createTestDb();
    const count = 70;
    db.transaction(() => {
      for (let n = 0; n < count; n++) {
        insertInflowRow(
          db,
          {
            sessionId: nextSessionId(),
            reference: `STRANGER-${n}`,
            amountKobo: 10_000 + n,
            status: 'success',
            // One per hour slot over the day: all 24 hours are busy.
            occurredAt: EXCEPTION_DAY_START + (n % 24) * HOUR + n * 1000,
            saleId: null,
            listed: true,
          },
          0,
        );
      }
    })();
    const { report, file, text } = await exportDay(db);
    expect(file.pages).toBeGreaterThanOrEqual(4);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages).toHaveLength(file.pages);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${file.pages}`));
    // Each unmatched payment is listed once.
    expect(prose(text).split(`${EXCEPTION_WORDS.unmatched_inflow} · `)).toHaveLength(count + 1);
    for (const row of report.byHour) {
      expect(text).toMatch(
        rowPattern(hourLabel(row.hour), String(row.count), formatNaira(row.amountKobo)),
      );
    }
    // The hour table may start on one page and end on the next: each page it is on has its header.
    const hourPages = pages.filter(
      (page) => page.includes(hourLabel(0)) || page.includes(hourLabel(23)),
    );
    for (const page of hourPages) expect(page).toMatch(rowPattern('Hour', 'Transfers', 'Amount'));
  });

  it('makes the same file from the same report, and names a range of days', async () => {
    const { db } = createTestDb();
    seedShopDay(db);
    const first = await exportDay(db);
    const second = await exportDay(db);
    expect(second.file.base64).toBe(first.file.base64);

    const range = await buildPdfExport(db, {
      fromDay: '2026-11-21',
      toDay: '2026-11-22',
      timeZone: 'Africa/Lagos',
      cutoffHour: 0,
      tillId: TILL_ID,
      now: NOW,
      shopName: SHOP,
      environment: 'production',
    });
    expect(range.filename).toBe('transfer-till-2026-11-21-to-2026-11-22.pdf');
    const text = pdfText(Buffer.from(range.base64, 'base64'));
    expect(prose(text)).toContain(`${SHOP} · till ${TILL_ID} · LIVE`);
    expect(text).not.toContain('SANDBOX');
    expect(text).toContain('2026-11-21 to 2026-11-22');
  });
});
