import type { Migration } from '../migrate';

/**
 * What the owner did about each exception of the end-of-day report, kept as an append-only log:
 * - every resolution (and every reopening) is a new row, so re-resolving an exception never
 *   loses what was recorded before; the row it supersedes gets `replaced_at`;
 * - at most one row per exception is current (`replaced_at IS NULL`: a partial unique index
 *   that the report's lookup also reads); a current 'reopened' row means the case is open again;
 * - an exception is named by its key (kind + sale id or session id, see
 *   reports/exception-resolutions.ts), not by a foreign key: a case may concern a sale, an
 *   inflow, or neither (unreadable rows);
 * - the rules the owner is told about are also CHECKs: a refund needs the bank's reference of
 *   the refund transfer, "other" needs a note.
 */
export const m005ExceptionResolutions: Migration = {
  version: 5,
  name: '005-exception-resolutions',
  up(db) {
    db.exec(`
      CREATE TABLE exception_resolutions (
        id INTEGER PRIMARY KEY,
        exception_key TEXT NOT NULL CHECK (length(exception_key) BETWEEN 1 AND 160),
        action TEXT NOT NULL
          CHECK (action IN ('refunded', 'goods_given', 'credited', 'other', 'reopened')),
        bank_reference TEXT CHECK (length(bank_reference) BETWEEN 1 AND 100),
        note TEXT CHECK (length(note) BETWEEN 1 AND 500),
        recorded_by TEXT NOT NULL CHECK (length(recorded_by) BETWEEN 1 AND 60),
        recorded_at INTEGER NOT NULL,
        replaced_at INTEGER,
        CHECK (action <> 'refunded' OR bank_reference IS NOT NULL),
        CHECK (action <> 'other' OR note IS NOT NULL)
      ) STRICT;
      CREATE UNIQUE INDEX exception_resolutions_current
        ON exception_resolutions (exception_key) WHERE replaced_at IS NULL;
      CREATE INDEX exception_resolutions_history ON exception_resolutions (exception_key, id);
    `);
  },
};
