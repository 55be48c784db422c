import { useState } from 'react';
import type { WindowApi } from '#shared/bridge/contract';
import { downloadText } from '../../download';
import { cashierMessage } from '../../errors';
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
  return pages === 1 ? '1 page' : `${pages} pages`;
}

/** The day's report saved as a CSV of its transactions or as the PDF main makes. */
export function useReportExport(bridge: WindowApi, query: DayQuery): ReportExport {
  const [message, setMessage] = useState<string | null>(null);
  const [savingPdf, setSavingPdf] = useState(false);

  async function exportCsv(): Promise<void> {
    setMessage(null);
    const result = await bridge.exportCsv(query);
    if (!result.ok) {
      setMessage(cashierMessage(result.error));
      return;
    }
    downloadText(result.value.filename, result.value.csv, 'text/csv;charset=utf-8');
    setMessage(`Saved ${result.value.filename} (${result.value.rows} rows).`);
  }

  async function savePdf(): Promise<void> {
    setMessage(null);
    setSavingPdf(true);
    const result = await bridge.exportPdf(query);
    setSavingPdf(false);
    if (!result.ok) {
      setMessage(cashierMessage(result.error));
      return;
    }
    savePdfFile(result.value);
    setMessage(`Saved ${result.value.filename} (${pagesWord(result.value.pages)}).`);
  }

  return { message, savingPdf, exportCsv, savePdf };
}
