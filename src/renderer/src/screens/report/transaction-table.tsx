import { useState, type FormEvent } from 'react';
import { formatNaira } from '#shared/money';
import { formatDateTime } from '../../format';
import { PAGE_SIZE, useTransactionPage, type StatusFilter } from './use-transaction-page';

export interface DayQuery {
  readonly day?: string;
}

/**
 * The day's transactions, one page at a time: main does the filtering and paging in SQL, so the
 * table stays fast however many rows the day holds.
 */
export function TransactionTable({
  query,
  reloadKey,
  timeZone,
}: {
  readonly query: DayQuery;
  readonly reloadKey: number;
  readonly timeZone: string;
}) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ key: '', offset: 0 });

  // A new day, filter or search starts again at the first page.
  const day = query.day;
  const pageKey = `${day ?? ''}|${status}|${search}`;
  const offset = page.key === pageKey ? page.offset : 0;
  const setOffset = (next: number) => setPage({ key: pageKey, offset: next });

  const { rows, total, loading, error } = useTransactionPage({
    day,
    status,
    search,
    offset,
    reloadKey,
  });

  function applySearch(event: FormEvent): void {
    event.preventDefault();
    setSearch(searchText.trim());
  }

  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + rows.length, total ?? 0);
  return (
    <section className="panel transactions" aria-labelledby="transactions-heading">
      <h3 id="transactions-heading">Transactions</h3>
      <div className="table-tools no-print">
        <label className="inline-label">
          <span>Status</span>
          <select
            value={status}
            onChange={(event) => setStatus(event.target.value as StatusFilter)}
          >
            <option value="all">All</option>
            <option value="success">Successful</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
            <option value="unknown">Unknown</option>
          </select>
        </label>
        <form className="search-form" role="search" onSubmit={applySearch}>
          <label className="inline-label">
            <span>Search reference, session ID or amount</span>
            <input
              type="search"
              value={searchText}
              maxLength={60}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </label>
          <button type="submit" className="button secondary">
            Search
          </button>
        </form>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="table-summary" role="status" data-testid="transactions-summary">
        {total === null
          ? 'Loading…'
          : total === 0
            ? 'No transactions match.'
            : `Showing ${first.toLocaleString('en-NG')}–${last.toLocaleString('en-NG')} of ${total.toLocaleString('en-NG')}`}
      </p>
      <table className="data-table" aria-busy={loading} data-testid="transactions-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Session ID</th>
            <th scope="col">Reference</th>
            <th scope="col">Sale</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.sessionId}>
              <td>{formatDateTime(row.occurredAt ?? row.firstSeenAt, timeZone)}</td>
              <td className="num">{formatNaira(row.amountKobo)}</td>
              <td className={`status-${row.status}`}>{row.status}</td>
              <td className="mono">{row.sessionId}</td>
              <td className="mono">{row.externalReference ?? '—'}</td>
              <td>{row.saleId !== null ? `#${row.saleId}` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="pager no-print">
        <button
          type="button"
          className="button secondary"
          disabled={offset === 0 || loading}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          Previous page
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={total === null || offset + PAGE_SIZE >= total || loading}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          Next page
        </button>
      </div>
    </section>
  );
}
