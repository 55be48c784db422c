import { useState } from 'react';
import { formatNaira } from '#shared/money';
// The report's words are shared with the PDF made in main: the file says what the screen says.
import { nounFor } from '#shared/plural';
import {
  ERROR_KINDS,
  FOR_INFORMATION_HEADING,
  NEEDS_A_PERSON_HEADING,
  STATUS_LINE,
  describeLastSync,
  exceptionTitle,
  exceptionsInReportOrder,
  needsAPerson,
  reportDayIsOver,
} from '#shared/report-words';
import type { AmountTotal, ZReportView } from '#shared/views';
import { dayOf, formatDateTime, LAGOS } from '../../format';
import { HoursPanel } from './charts/hours-panel';
import { TrendPanel } from './charts/trend-panel';
import { ExceptionResolutionPanel } from './exception-resolution';
import { ShopTotals } from './shop-totals';
import { OtherIncome } from './other-income';
import { TransactionTable, type DayQuery } from './transaction-table';
import { useReportExport } from './use-report-export';
import { useSync } from './use-sync';
import { useZReport } from './use-z-report';

export function ReportScreen() {
  const [selectedDay, setSelectedDay] = useState<string | null>(null);
  /** Bumped after a sync: the report, its table and its trend are read again. */
  const [reloadKey, setReloadKey] = useState(0);
  // The day the picker shows before the report says which day it is.
  const [today] = useState(() => dayOf(Date.now()));
  const query: DayQuery = selectedDay ? { day: selectedDay } : {};

  const { report, error: reportError } = useZReport(selectedDay, reloadKey);
  const {
    syncing,
    progress,
    message: syncMessage,
    fullSync,
    setFullSync,
    start: startSync,
    cancel: cancelSync,
  } = useSync(() => setReloadKey((key) => key + 1));
  const { message: exportMessage, savingPdf, exportCsv, savePdf } = useReportExport(query);

  const timeZone = report?.timeZone ?? LAGOS;
  const shownDay = selectedDay ?? report?.fromDay ?? today;

  return (
    <section className="screen report" aria-labelledby="report-heading">
      <h2 id="report-heading">End-of-day report</h2>

      <div className="report-tools no-print">
        <label className="inline-label">
          <span>Day</span>
          <input
            type="date"
            value={shownDay}
            onChange={(event) => {
              if (/^\d{4}-\d{2}-\d{2}$/.test(event.target.value))
                setSelectedDay(event.target.value);
            }}
          />
        </label>
        <label className="inline-label checkbox">
          <input
            type="checkbox"
            checked={fullSync}
            onChange={(event) => setFullSync(event.target.checked)}
          />
          <span>Check every payment again</span>
        </label>
        <button
          type="button"
          className="button primary"
          disabled={syncing}
          onClick={() => void startSync()}
        >
          Sync
        </button>
        {syncing && (
          <button type="button" className="button danger" onClick={() => void cancelSync()}>
            Cancel sync
          </button>
        )}
        <button type="button" className="button secondary" onClick={() => void exportCsv()}>
          Export CSV
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={savingPdf}
          onClick={() => void savePdf()}
        >
          Save as PDF
        </button>
        <button type="button" className="button secondary" onClick={() => window.print()}>
          Print report
        </button>
      </div>

      {syncing && (
        <div className="sync-progress no-print">
          <progress
            aria-label="Sync progress"
            max={progress && progress.count > 0 ? progress.count : undefined}
            value={progress && progress.count > 0 ? progress.collected : undefined}
          />
          <span role="status">
            {progress
              ? `Syncing: ${progress.collected.toLocaleString('en-NG')} of ${progress.count.toLocaleString('en-NG')}`
              : 'Syncing with the bank…'}
          </span>
        </div>
      )}
      {syncMessage && (
        <p className="notice no-print" role="status">
          {syncMessage}
        </p>
      )}
      {exportMessage && (
        <p className="notice no-print" role="status">
          {exportMessage}
        </p>
      )}
      {reportError && (
        <p className="error" role="alert">
          {reportError}
        </p>
      )}

      {report && <ZReport report={report} reloadKey={reloadKey} />}
      <TransactionTable query={query} reloadKey={reloadKey} timeZone={timeZone} />
    </section>
  );
}

function Figure({
  label,
  total,
  id,
  showAmountId,
}: {
  readonly label: string;
  readonly total: AmountTotal;
  readonly id: string;
  readonly showAmountId?: string;
}) {
  return (
    <div className={`figure figure-${id}`}>
      <h3>{label}</h3>
      <p className="figure-count">
        <span data-testid={`report-${id}-count`}>{total.count}</span>{' '}
        <span className="muted">{nounFor(total.count, 'transfer')}</span>
      </p>
      <p className="figure-amount" data-testid={showAmountId}>
        {formatNaira(total.amountKobo)}
      </p>
    </div>
  );
}

function ZReport({
  report,
  reloadKey,
}: {
  readonly report: ZReportView;
  readonly reloadKey: number;
}) {
  // Who needs to act is report-words' one table, as in the PDF and the CSV.
  const exceptions = exceptionsInReportOrder(report.exceptions.filter((e) => needsAPerson(e.kind)));
  const information = report.exceptions.filter((e) => !needsAPerson(e.kind));
  const dayIsOver = reportDayIsOver(report);
  const period =
    report.fromDay === report.toDay ? report.fromDay : `${report.fromDay} to ${report.toDay}`;
  return (
    <div className="z-report">
      <p className="report-period">
        {period} · from {formatDateTime(report.fromMs, report.timeZone)} to{' '}
        {formatDateTime(report.toMs, report.timeZone)} ({report.timeZone}, day starts{' '}
        {String(report.cutoffHour).padStart(2, '0')}:00)
      </p>
      <p className="last-sync" data-testid="last-sync">
        {describeLastSync(report.lastSync, report.timeZone)}
      </p>

      <div className="figures">
        <Figure
          label="Successful (all tills and accounts)"
          total={report.success}
          id="success"
          showAmountId="report-success-amount"
        />
        {/* Transfers the bank did not complete: no money of the shop's, so no alarm colour. */}
        <Figure label="Not completed" total={report.failed} id="failed" />
        <Figure label="Pending" total={report.pending} id="pending" />
      </div>

      <ShopTotals shop={report.shop} otherIncome={Boolean(report.otherIncome)} />
      <OtherIncome report={report} />

      <section className="panel" aria-labelledby="exceptions-heading">
        <h3 id="exceptions-heading">
          {NEEDS_A_PERSON_HEADING} ({exceptions.length})
        </h3>
        {exceptions.length === 0 ? (
          <p className="muted">No exceptions.</p>
        ) : (
          <ul className="exception-list" data-testid="report-exceptions">
            {exceptions.map((exception, index) => (
              <li
                key={`${exception.kind}-${exception.saleId ?? ''}-${exception.sessionId ?? ''}-${index}`}
                className={ERROR_KINDS.has(exception.kind) ? 'exception-error' : undefined}
                data-severity={ERROR_KINDS.has(exception.kind) ? 'error' : 'warning'}
              >
                {ERROR_KINDS.has(exception.kind) && <span className="error">Error: </span>}
                <strong>{exceptionTitle(exception.kind, dayIsOver)}</strong>
                {exception.amountKobo !== null && ` · ${formatNaira(exception.amountKobo)}`}
                {exception.saleId !== null && ` · sale #${exception.saleId}`}
                <p>{exception.message}</p>
                <p className="action">What to do: {exception.action}</p>
                <ExceptionResolutionPanel exception={exception} timeZone={report.timeZone} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {information.length > 0 && (
        <section className="panel" aria-labelledby="information-heading">
          <h3 id="information-heading">
            {FOR_INFORMATION_HEADING} ({information.length})
          </h3>
          <ul className="exception-list information-list" data-testid="report-information">
            {information.map((item, index) => (
              <li key={`${item.kind}-${item.sessionId ?? ''}-${index}`}>
                <strong>{exceptionTitle(item.kind, dayIsOver)}</strong>
                {item.saleId !== null && ` · sale #${item.saleId}`}
                <p>{item.message}</p>
                <p className="muted">{item.action}</p>
                <p className="exception-status" data-testid="exception-status">
                  <strong>{STATUS_LINE.information}</strong>
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}

      <HoursPanel report={report} />
      <TrendPanel day={report.toDay} reloadKey={reloadKey} />
      <div className="report-tables">
        <section className="panel" aria-labelledby="by-till-heading">
          <h3 id="by-till-heading">Paid sales made here, by till id and cashier</h3>
          {report.byTill.length === 0 ? (
            <p className="muted">No paid sales.</p>
          ) : (
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Till</th>
                  <th scope="col">Cashier</th>
                  <th scope="col">Sales</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {report.byTill.map((row) => (
                  <tr key={`${row.tillId ?? ''}|${row.cashier ?? ''}`}>
                    <td>{row.tillId ?? '—'}</td>
                    <td>{row.cashier ?? '—'}</td>
                    <td className="num">{row.count}</td>
                    <td className="num">{formatNaira(row.amountKobo)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <p className="muted">Report made {formatDateTime(report.generatedAt, report.timeZone)}</p>
    </div>
  );
}
