/**
 * "Save as PDF": the end-of-day report of a range of days as a PDF file, made in main so that the
 * desktop app and the browser shell make the same file from the same figures as the screen.
 */
import type { PdfExportView } from '#shared/printing';
import type { Db } from '#main/store/database';
import { reportFileName } from '../csv';
import type { ZReportOptions } from '../report-options';
import { buildZReport } from '../z-report';
import { ReportFileError, reportFonts } from './pdf-fonts';
import { renderReportPdf, type ReportPdfHeader } from './report-pdf';

export type PdfExportOptions = ZReportOptions & ReportPdfHeader;

export async function buildPdfExport(db: Db, options: PdfExportOptions): Promise<PdfExportView> {
  const { shopName, environment, ...reportOptions } = options;
  const report = buildZReport(db, reportOptions);
  const fonts = reportFonts();
  let rendered;
  try {
    rendered = await renderReportPdf(report, { shopName, environment }, fonts);
  } catch (error) {
    throw new ReportFileError(
      'PDF_FAILED',
      `The PDF could not be made (${error instanceof Error ? error.message : 'unknown error'}). Export CSV still works.`,
    );
  }
  return {
    filename: reportFileName(report.fromDay, report.toDay, 'pdf'),
    base64: Buffer.from(rendered.bytes).toString('base64'),
    pages: rendered.pages,
  };
}
