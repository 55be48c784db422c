/**
 * The end-of-day report as a PDF: the same ZReportView the report screen shows, laid out for A4
 * in the screen's order and words (shared/report-words.ts): headline figures, the shop view,
 * exceptions with their resolutions, by hour, by till and cashier, last sync.
 */
import { formatNaira } from '#shared/money';
import { countOf } from '#shared/plural';
import {
  ERROR_KINDS,
  FOR_INFORMATION_HEADING,
  NEEDS_A_PERSON_HEADING,
  STATUS_LINE,
  describeLastSync,
  describePeriod,
  describeResolution,
  exceptionStatus,
  exceptionTitle,
  exceptionsInReportOrder,
  needsAPerson,
  formatDateTime,
  hourLabel,
  reportDayIsOver,
} from '#shared/report-words';
import type { Environment } from '#shared/settings-schema';
import type { AmountTotal, ReportException, ZReportView } from '#shared/views';
import type { PdfFonts } from './pdf-fonts';
import {
  createPdfWriter,
  type PdfColumn,
  type PdfRow,
  type PdfWriter,
  type RenderedPdf,
} from './pdf-writer';

/** Who the report is for: printed at its top and foot. */
export interface ReportPdfHeader {
  readonly shopName: string;
  readonly environment: Environment;
}

/**
 * A file outlives the screen it came from (it is mailed, filed, printed): practice money says
 * so in words on every page, not only with the screen's badge.
 */
export const ENVIRONMENT_ON_PAPER: Readonly<Record<Environment, string>> = {
  sandbox: 'SANDBOX: practice money, not real',
  staging: 'STAGING: test money, not real',
  production: 'LIVE',
};

function transfers(count: number): string {
  return countOf(count, 'transfer');
}

const MONEY_COLUMNS: readonly PdfColumn[] = [
  { header: 'Transfers', share: 1, align: 'right' },
  { header: 'Amount', share: 1.4, align: 'right' },
];

function moneyCells(total: AmountTotal): readonly string[] {
  return [String(total.count), formatNaira(total.amountKobo)];
}

function headline(pdf: PdfWriter, report: ZReportView): void {
  pdf.table(
    [{ header: 'Headline', share: 3 }, ...MONEY_COLUMNS],
    [
      { cells: ['Successful (all tills and accounts)', ...moneyCells(report.success)], bold: true },
      { cells: ['Not completed', ...moneyCells(report.failed)] },
      { cells: ['Pending', ...moneyCells(report.pending)] },
    ],
  );
}

function shopView(pdf: PdfWriter, report: ZReportView): void {
  const { shop } = report;
  const others = shop.otherTills.reduce<AmountTotal>(
    (sum, till) => ({
      count: sum.count + till.count,
      amountKobo: sum.amountKobo + till.amountKobo,
    }),
    { count: 0, amountKobo: 0 },
  );
  const rows: PdfRow[] = [
    {
      cells: [
        `This till · ${shop.tillId} (references ${shop.tillPrefix}-…)`,
        ...moneyCells(shop.thisTill),
      ],
    },
    { cells: ['Other tills of this shop', ...moneyCells(others)] },
    ...shop.otherTills.map((till) => ({
      cells: [`Till ${till.tillPrefix} · another till of this shop`, ...moneyCells(till)],
    })),
    { cells: ['Standing accounts', ...moneyCells(shop.standingAccounts)] },
    { cells: ['Shop total', ...moneyCells(shop.shopTotal)], bold: true },
  ];
  pdf.heading('Successful transfers by till of this shop');
  pdf.table([{ header: 'Made by', share: 3 }, ...MONEY_COLUMNS], rows);
  if (shop.otherTills.length === 0) {
    pdf.paragraph(
      'No other till of this shop was paid in this period, as far as the last sync shows.',
      { muted: true },
    );
  }
  const where = report.otherIncome
    ? ' (other income on this account, listed below: not a case for a person).'
    : ` (each is listed under "${NEEDS_A_PERSON_HEADING}").`;
  pdf.paragraph(
    `Not made by any till of this shop: ${transfers(shop.notOurs.count)}, ${formatNaira(shop.notOurs.amountKobo)}${shop.notOurs.count > 0 ? where : '.'}`,
  );
  const other = report.otherIncome;
  if (other && other.success.count + other.failed.count > 0) {
    pdf.heading('Other income on this account');
    pdf.paragraph(
      `Received: ${transfers(other.success.count)}, ${formatNaira(other.success.amountKobo)}. Rejected by the provider: ${transfers(other.failed.count)}, ${formatNaira(other.failed.amountKobo)}. Not counted in the shop's sales.`,
    );
  }
}

function exceptionLines(exception: ReportException, timeZone: string, dayIsOver: boolean) {
  const error = ERROR_KINDS.has(exception.kind);
  const status = exceptionStatus(exception);
  const title = [
    `${error ? 'Error: ' : ''}${exceptionTitle(exception.kind, dayIsOver)}`,
    ...(exception.amountKobo === null ? [] : [formatNaira(exception.amountKobo)]),
    ...(exception.saleId === null ? [] : [`sale #${exception.saleId}`]),
  ].join(' · ');
  const { resolution } = exception;
  return [
    { text: title, bold: true },
    { text: exception.message },
    { text: `What to do: ${exception.action}` },
    ...(resolution && status === 'resolved'
      ? [
          { text: `Resolved: ${describeResolution(resolution, timeZone)}`, bold: true },
          ...(resolution.note === null ? [] : [{ text: `Note: ${resolution.note}` }]),
        ]
      : [{ text: STATUS_LINE[status === 'information' ? 'information' : 'open'], bold: true }]),
  ];
}

function exceptions(pdf: PdfWriter, report: ZReportView): void {
  // Who needs to act is report-words' one table, as on screen and in the CSV.
  const forPerson = report.exceptions.filter((e) => needsAPerson(e.kind));
  const information = report.exceptions.filter((e) => !needsAPerson(e.kind));
  const dayIsOver = reportDayIsOver(report);
  pdf.heading(`${NEEDS_A_PERSON_HEADING} (${forPerson.length})`);
  if (forPerson.length === 0) pdf.paragraph('No exceptions.', { muted: true });
  for (const exception of exceptionsInReportOrder(forPerson)) {
    pdf.block(exceptionLines(exception, report.timeZone, dayIsOver));
    pdf.gap(4);
  }
  if (information.length === 0) return;
  pdf.heading(`${FOR_INFORMATION_HEADING} (${information.length})`);
  for (const exception of information) {
    pdf.block(exceptionLines(exception, report.timeZone, dayIsOver));
    pdf.gap(4);
  }
}

function byHour(pdf: PdfWriter, report: ZReportView): void {
  pdf.heading('Successful by hour');
  const busy = report.byHour.filter((row) => row.count > 0);
  if (busy.length === 0) {
    pdf.paragraph('No successful transfers.', { muted: true });
    return;
  }
  pdf.table(
    [{ header: 'Hour', share: 3 }, ...MONEY_COLUMNS],
    busy.map((row) => ({ cells: [hourLabel(row.hour), ...moneyCells(row)] })),
  );
}

function byTill(pdf: PdfWriter, report: ZReportView): void {
  pdf.heading('Paid sales made here, by till id and cashier');
  if (report.byTill.length === 0) {
    pdf.paragraph('No paid sales.', { muted: true });
    return;
  }
  pdf.table(
    [
      { header: 'Till', share: 1.6 },
      { header: 'Cashier', share: 1.6 },
      { header: 'Sales', share: 0.8, align: 'right' },
      { header: 'Amount', share: 1.4, align: 'right' },
    ],
    report.byTill.map((row) => ({
      cells: [
        row.tillId ?? '—',
        row.cashier ?? '—',
        String(row.count),
        formatNaira(row.amountKobo),
      ],
    })),
  );
}

export function renderReportPdf(
  report: ZReportView,
  header: ReportPdfHeader,
  fonts: PdfFonts,
): Promise<RenderedPdf> {
  const days =
    report.fromDay === report.toDay ? report.fromDay : `${report.fromDay} to ${report.toDay}`;
  const pdf = createPdfWriter(fonts, {
    title: `End-of-day report ${days} · ${header.shopName}`,
    subject: 'Transfer Till end-of-day report',
    createdAt: report.generatedAt,
    footer: `Transfer Till · ${header.shopName} · ${days} · ${ENVIRONMENT_ON_PAPER[header.environment]}`,
  });
  pdf.title('End-of-day report');
  pdf.paragraph(
    `${header.shopName} · till ${report.shop.tillId} · ${ENVIRONMENT_ON_PAPER[header.environment]}`,
    {
      bold: true,
    },
  );
  pdf.paragraph(describePeriod(report));
  pdf.paragraph(describeLastSync(report.lastSync, report.timeZone));
  pdf.gap();
  headline(pdf, report);
  shopView(pdf, report);
  exceptions(pdf, report);
  byHour(pdf, report);
  byTill(pdf, report);
  pdf.gap();
  pdf.paragraph(`Report made ${formatDateTime(report.generatedAt, report.timeZone)}`, {
    muted: true,
  });
  return pdf.finish();
}
