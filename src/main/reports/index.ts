export { balanceErrorAdvice, checkPayout, describePayoutCheck, getBalanceView } from './balance';
export { CSV_COLUMNS, buildCsvExport, csvFilename } from './csv';
export {
  DEFAULT_SKEW_MARGIN_MS,
  TAIL_OVERLAP_ROWS,
  planIncremental,
  type SyncPlan,
} from './listing-order';
export {
  MAX_REPORT_DAYS,
  ReportError,
  reportRange,
  requestedDayRange,
  type DayRangeOptions,
} from './report-range';
export {
  DEFAULT_PAGE_LIMIT,
  DEFAULT_READ_AHEAD,
  SyncError,
  createTransactionSync,
  type SyncEvents,
  type SyncRequest,
  type TransactionSync,
  type TransactionSyncDeps,
} from './sync';
export type { ListedRowChange } from './sync-store';
export {
  MAX_LIST_LIMIT,
  listTransactions,
  parseSearch,
  type TransactionQuery,
} from './transactions';
export {
  DEFAULT_EXCEPTION_LIMIT,
  DEFAULT_LISTING_LAG_MS,
  buildZReport,
  headlineTotals,
  type ZReportOptions,
} from './z-report';
