import type { DayRangeOptions } from '#main/reports/report-range';
import type { Db } from '#main/store/database';
import { insertInflowRow, insertSaleWithHistory, nextSessionId } from './shop-history';

export const EXCEPTION_DAY = '2026-11-22';
/** 2026-11-22 00:00 in Lagos. */
export const EXCEPTION_DAY_START = Date.UTC(2026, 10, 21, 23);
const HOUR = 3_600_000;

/** The report range of EXCEPTION_DAY in Lagos, as the report and the CSV take it. */
export const EXCEPTION_DAY_RANGE: DayRangeOptions = {
  fromDay: EXCEPTION_DAY,
  toDay: EXCEPTION_DAY,
  timeZone: 'Africa/Lagos',
  cutoffHour: 0,
};

export interface ExceptionDay {
  /** A sale paid after it expired, and the inflow that paid it. */
  readonly paidLateSaleId: number;
  readonly paidLateSessionId: string;
  /** Money no sale and no till of the shop asked for (a reference this app never writes). */
  readonly unmatchedSessionId: string;
  /** A transfer the provider rejected, for no sale. */
  readonly rejectedSessionId: string;
  /** A sale still waiting at the cut-off: no inflow row concerns it. */
  readonly openSaleId: number;
  /** A sale paid on time: no exception. */
  readonly paidSessionId: string;
}

/**
 * One business day with one exception of each kind a person resolves (paid late, unmatched,
 * wrong amount, open at cut-off) and one ordinary paid sale, in a real database.
 */
export function seedExceptionDay(db: Db): ExceptionDay {
  const at = (hours: number) => EXCEPTION_DAY_START + hours * HOUR;
  return db.transaction((): ExceptionDay => {
    const paidLateSessionId = nextSessionId();
    const late = insertSaleWithHistory(
      db,
      {
        amountKobo: 250_000,
        tillId: 'till-A',
        cashier: 'Ada',
        reference: 'TILLA-L1',
        createdAt: at(9),
      },
      [
        { at: at(9) + 1000, state: 'awaiting_payment' },
        { at: at(9) + 1_800_000, state: 'expired' },
        { at: at(10), state: 'paid_late', paidSessionId: paidLateSessionId },
      ],
    );
    insertInflowRow(
      db,
      {
        sessionId: paidLateSessionId,
        reference: 'TILLA-L1',
        amountKobo: 250_000,
        status: 'success',
        occurredAt: at(10),
        saleId: late.id,
        listed: true,
      },
      at(10),
    );

    const paidSessionId = nextSessionId();
    const paid = insertSaleWithHistory(
      db,
      {
        amountKobo: 100_000,
        tillId: 'till-A',
        cashier: 'Ada',
        reference: 'TILLA-P1',
        createdAt: at(11),
      },
      [
        { at: at(11) + 1000, state: 'awaiting_payment' },
        { at: at(11) + 60_000, state: 'paid', paidSessionId },
      ],
    );
    insertInflowRow(
      db,
      {
        sessionId: paidSessionId,
        reference: 'TILLA-P1',
        amountKobo: 100_000,
        status: 'success',
        occurredAt: at(11) + 60_000,
        saleId: paid.id,
        listed: true,
      },
      at(11),
    );

    const unmatchedSessionId = nextSessionId();
    insertInflowRow(
      db,
      {
        sessionId: unmatchedSessionId,
        reference: 'SOMEONE-ELSES-STATIC',
        amountKobo: 730_050,
        status: 'success',
        occurredAt: at(12),
        saleId: null,
        listed: true,
      },
      at(12),
    );

    const rejectedSessionId = nextSessionId();
    insertInflowRow(
      db,
      {
        sessionId: rejectedSessionId,
        reference: 'SOMEONE-ELSES-FLEX',
        amountKobo: 5_000,
        status: 'failed',
        occurredAt: at(13),
        saleId: null,
        listed: true,
      },
      at(13),
    );

    const open = insertSaleWithHistory(
      db,
      {
        amountKobo: 80_000,
        tillId: 'till-A',
        cashier: 'Bola',
        reference: 'TILLA-O1',
        createdAt: at(14),
      },
      [{ at: at(14) + 1000, state: 'awaiting_payment' }],
    );

    return {
      paidLateSaleId: late.id,
      paidLateSessionId,
      unmatchedSessionId,
      rejectedSessionId,
      openSaleId: open.id,
      paidSessionId,
    };
  })();
}
