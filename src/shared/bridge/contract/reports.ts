import { z } from 'zod';
import type { PdfExportView } from '../../printing';
import {
  RESOLUTION_ACTIONS,
  type CsvExportView,
  type ExceptionResolutionView,
  type TransactionListView,
  type TrendView,
  type ZReportView,
} from '../../views';
import { channel } from './channel';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22');
const dayRange = z
  .object({ day: day.optional(), fromDay: day.optional(), toDay: day.optional() })
  .strict();

/** The end-of-day report of a day range: on screen, as a list, as files. */
export const reportChannels = {
  getZReport: channel<ZReportView>()(dayRange),
  /** Successful inflows of the seven business days ending on `day` (default today), day by day. */
  getTrend: channel<TrendView>()(z.object({ day: day.optional() }).strict()),
  listTransactions: channel<TransactionListView>()(
    dayRange
      .extend({
        status: z.enum(['success', 'failed', 'pending', 'unknown']).optional(),
        search: z.string().trim().max(60).optional(),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
  ),
  exportCsv: channel<CsvExportView>()(dayRange),
  /** The end-of-day report of the range as a PDF file ("Save as PDF"). */
  exportPdf: channel<PdfExportView>()(dayRange),
} as const;

/** What the owner did about the report's exceptions. */
export const exceptionChannels = {
  /** The owner records what was done about an exception of the report (by its key). */
  resolveException: channel<ExceptionResolutionView>()(
    z
      .object({
        key: z.string().min(1).max(160),
        action: z.enum(RESOLUTION_ACTIONS),
        /** Required for 'refunded', 'other' needs a note: main refuses either missing, in words. */
        bankReference: z.string().trim().max(100).nullable().optional(),
        note: z.string().trim().max(500).nullable().optional(),
      })
      .strict(),
    'owner',
  ),
  reopenException: channel<ExceptionResolutionView>()(
    z.object({ key: z.string().min(1).max(160) }).strict(),
    'owner',
  ),
} as const;
