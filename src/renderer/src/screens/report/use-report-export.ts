import { useState } from 'react';
import { countOf } from '#shared/plural';
import type { PdfExportView } from '#shared/printing';
import type { CsvExportView } from '#shared/views';
import { downloadText } from '../../download';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';
import { savePdfFile } from './save-pdf';
import type { DayQuery } from './transaction-table';

export interface ReportExport {
  /** What the last export saved, or why it did not. */
  readonly message: string | null;
  readonly savingPdf: boolean;
  readonly exportCsv: () => Promise<void>;
  readonly savePdf: () => Promise<void>;
}

function pagesWord(pages: number): string {
  return countOf(pages, 'page');
}

/** The day's report saved as a CSV of its transactions or as the PDF main makes. */
export function useReportExport(query: DayQuery): ReportExport {
  const csv = useBridgeCall<CsvExportView>();
  const pdf = useBridgeCall<PdfExportView>();
  const [message, setMessage] = useState<string | null>(null);
  const [savingPdf, setSavingPdf] = useState(false);

  async function exportCsv(): Promise<void> {
    setMessage(null);
    const result = await csv.run((bridge) => bridge.exportCsv(query));
    if (!result) return;
    if (!result.ok) {
      setMessage(failureOf(result.error).words);
      return;
    }
    downloadText(result.value.filename, result.value.csv, 'text/csv;charset=utf-8');
    setMessage(`Saved ${result.value.filename} (${result.value.rows} rows).`);
  }

  async function savePdf(): Promise<void> {
    setMessage(null);
    setSavingPdf(true);
    const result = await pdf.run((bridge) => bridge.exportPdf(query));
    if (!result) return;
    setSavingPdf(false);
    if (!result.ok) {
      setMessage(failureOf(result.error).words);
      return;
    }
    savePdfFile(result.value);
    setMessage(`Saved ${result.value.filename} (${pagesWord(result.value.pages)}).`);
  }

  return { message, savingPdf, exportCsv, savePdf };
}
