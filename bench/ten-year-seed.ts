/**
 * A shop's store after years of trading, for the ten-year benchmark: 1,000 sales a day, each
 * with its one-off account, its state changes (sale_events) and, when money came, its inflow and
 * the provider's callback as the listener logged it; the shop's standing accounts and their
 * payments; the other tills' payments that the merchant-wide listing brings in; one sync a day;
 * alerts, status changes, reversals, unreadable listing rows and resolved exceptions at the rates
 * a busy shop meets them. Inflows are topped up to 1,000 a day with the other tills' and the
 * standing accounts' payments, so a ten-year store holds 3,650,000 sales and 3,650,000 inflows.
 *
 * Every day is drawn from its own seeded random stream, numbered from the last day backwards:
 * the last 365 days of the ten-year store and the one-year store hold the same rows (ids, the
 * numbered tail of session ids and the standing accounts' creation date aside), so a report of a
 * day in the last year is the same work on both, history apart.
 *
 * Written through the app's own migrations (openDatabase on a file), then in bulk transactions
 * with the journal in memory: a half-written file is never used (it only gets its cached name, in the
 * OS temp dir, once complete), so crash safety buys nothing while seeding. The name carries the
 * migrations' own code and SHOP_SEED_VERSION: a new or changed migration, or a change here, seeds
 * again.
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import { openDatabase, type Db } from '#main/store/database';
import { migrations } from '#main/store/migrations';
import { businessDayRange, zoneOffsetMs } from '#shared/provider-time';

/** Bump when the rows seeded here change: the cached stores are then seeded again. */
export const SHOP_SEED_VERSION = 1;
export const SHOP_ZONE = 'Africa/Lagos';
export const SALES_PER_DAY = 1_000;
/** Inflows a day, all sources together. */
export const INFLOWS_PER_DAY = 1_000;
/** The last business day of every seeded store. */
export const SHOP_LAST_DAY = '2026-11-22';
/** This till's id now; until LEGACY_DAYS before the end it was the old default 'till-1'. */
export const THIS_TILL_ID = 'till-a7k2';
const LEGACY_TILL_ID = 'till-1';
const LEGACY_DAYS = 6 * 365;
/** The shop's other tills: their payments come in only through the merchant-wide listing. */
const OTHER_TILL_PREFIXES = ['TILLB3M9', 'TILLC8P4'] as const;
const CASHIERS = ['Ada', 'Bola', 'Chidi', 'Dayo', 'Efe'] as const;
const NOTES = ['Table 4', 'Delivery', 'Pepper soup x2', 'Deposit', 'Balance'] as const;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const EXPIRY_MINUTES = 15;
const OPENS_AT_HOUR = 8;
const OPEN_HOURS = 13;
/** The end-of-day sync, local time: after closing. */
const SYNC_AT_HOUR = 22;
const CALLBACK_URL = 'https://till-a7k2.ngrok.app/webhook/t/4f9c2a7d1e8b4c6f0a3d5e7b9c1f2a4d';
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export interface ShopStore {
  /** The cached file, complete; open it with openDatabase. */
  readonly path: string;
  readonly days: number;
  readonly firstDay: string;
  readonly lastDay: string;
  readonly sales: number;
  /** Milliseconds this run spent seeding; 0 when the cached file was reused. */
  readonly seedMs: number;
}

/**
 * A short hash of every migration's code: a migration still being written keeps the count the
 * same but changes what a store holds, so a count alone would reuse a stale store.
 */
function schemaHash(): string {
  const code = migrations.map((m) => `${m.version}:${m.name}:${m.up.toString()}`).join('\n');
  return createHash('sha256').update(code).digest('hex').slice(0, 8);
}

/** The cached store of the last `days` business days up to SHOP_LAST_DAY, seeded when missing. */
export function ensureShopStore(days: number, progress?: (line: string) => void): ShopStore {
  const path = join(
    tmpdir(),
    `till-bench-shop-${days}d-schema${migrations.length}-${schemaHash()}-seed${SHOP_SEED_VERSION}.sqlite`,
  );
  const lastStart = dayStart(0);
  const firstDay = new Date(lastStart - (days - 1) * DAY_MS + HOUR_MS).toISOString().slice(0, 10);
  const store = { path, days, firstDay, lastDay: SHOP_LAST_DAY, sales: days * SALES_PER_DAY };
  if (isComplete(path, store.sales)) return { ...store, seedMs: 0 };
  const started = performance.now();
  const partial = `${path}.${process.pid}.partial`;
  rmSync(partial, { force: true });
  const db = openDatabase({ path: partial });
  try {
    seed(db, days, (done) =>
      progress?.(
        `seeding ${days}-day shop: ${done}/${days} days, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      ),
    );
    db.pragma('journal_mode = WAL');
  } catch (error) {
    db.close();
    rmSync(partial, { force: true });
    throw error;
  }
  db.close();
  renameSync(partial, path);
  return { ...store, seedMs: performance.now() - started };
}

/** Bytes on disk of a database: the file and its WAL and shared-memory files. */
export function storeBytes(path: string): number {
  return [path, `${path}-wal`, `${path}-shm`]
    .filter((file) => existsSync(file))
    .reduce((sum, file) => sum + statSync(file).size, 0);
}

/** [fromMs, toMs) of business days in the shop's zone (cut-off at midnight, the default). */
export function shopRange(fromDay: string, toDay: string): { fromMs: number; toMs: number } {
  const [fromMs] = businessDayRange(fromDay, { timeZone: SHOP_ZONE, cutoffHour: 0 });
  const [, toMs] = businessDayRange(toDay, { timeZone: SHOP_ZONE, cutoffHour: 0 });
  return { fromMs, toMs };
}

function isComplete(path: string, sales: number): boolean {
  if (!existsSync(path)) return false;
  try {
    const db = new Database(path, { readonly: true });
    try {
      const version = db.pragma('user_version', { simple: true });
      const last = db.prepare('SELECT MAX(id) FROM sales').pluck().get();
      return version === migrations.length && last === sales;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Start (epoch ms) of the business day `back` days before SHOP_LAST_DAY. */
function dayStart(back: number): number {
  const [start] = businessDayRange(SHOP_LAST_DAY, { timeZone: SHOP_ZONE, cutoffHour: 0 });
  return start - back * DAY_MS;
}

// ---------------------------------------------------------------------------------------------
// Local time text. Lagos keeps +01:00 all year (checked once below), so text is date arithmetic.

const OFFSET_MS = zoneOffsetMs(dayStart(0), SHOP_ZONE);
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

/** Local time text of instants of one day (starting at local midnight), without Intl or Date. */
interface DayClock {
  /** The provider's 'YYYY-MM-DD HH:MM:SS'. */
  readonly providerDate: (epochMs: number) => string;
  /** YYYYMMDDHHMMSS: the time part of a reference. */
  readonly stamp: (epochMs: number) => string;
}

function dayClock(start: number): DayClock {
  const iso = new Date(start + OFFSET_MS).toISOString();
  const dashed = iso.slice(0, 10);
  const digits = dashed.replace(/-/g, '');
  const parts = (epochMs: number): readonly [string, string, string] => {
    const seconds = Math.floor((epochMs - start) / 1000);
    if (seconds < 0 || seconds >= 86_400) throw new Error('instant outside its day');
    return [
      TWO_DIGITS[Math.floor(seconds / 3600)] ?? '',
      TWO_DIGITS[Math.floor(seconds / 60) % 60] ?? '',
      TWO_DIGITS[seconds % 60] ?? '',
    ];
  };
  return {
    providerDate: (epochMs) => {
      const [h, m, sec] = parts(epochMs);
      return `${dashed} ${h}:${m}:${sec}`;
    },
    stamp: (epochMs) => {
      const [h, m, sec] = parts(epochMs);
      return `${digits}${h}${m}${sec}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding

interface Statements {
  readonly account: Database.Statement;
  readonly sale: Database.Statement;
  readonly event: Database.Statement;
  readonly inflow: Database.Statement;
  readonly history: Database.Statement;
  readonly callback: Database.Statement;
  readonly alert: Database.Statement;
  readonly syncRun: Database.Statement;
  readonly unreadable: Database.Statement;
  readonly resolution: Database.Statement;
  readonly reverse: Database.Statement;
}

function statements(db: Db): Statements {
  return {
    account: db.prepare(
      `INSERT INTO virtual_accounts (id, type, purpose, reference, provider_reference,
         account_number, account_name, bank, amount_kobo, expiry_minutes, expires_at, callback_url,
         status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    sale: db.prepare(
      `INSERT INTO sales (id, amount_kobo, note, cashier, till_id, state, reason, reference,
         account_id, expires_at, paid_session_id, paid_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    event: db.prepare(
      `INSERT INTO sale_events (sale_id, at, from_state, to_state, cause, detail)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    inflow: db.prepare(
      `INSERT INTO inflows (id, session_id, external_reference, amount_kobo, status, provider_date,
         occurred_at, source, last_source, sale_id, account_id, first_seen_at, updated_at,
         listed_at, listed_status, status_observed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'listing', ?, ?, ?, ?, ?, ?, ?)`,
    ),
    history: db.prepare(
      `INSERT INTO inflow_status_history (inflow_id, recorded_at, observed_at, from_status,
         to_status, source) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    callback: db.prepare(
      `INSERT INTO callback_log (received_at, remote_address, method, content_type, headers, body,
         parse_status, hint_reference, hint_session_id, hint_amount_kobo, hint_status,
         processed_at, outcome)
       VALUES (?, '127.0.0.1', 'POST', 'application/json', ?, ?, 'ok', ?, ?, ?, ?, ?, ?)`,
    ),
    alert: db.prepare(
      `INSERT INTO alerts (created_at, level, kind, sale_id, session_id, message, dedupe_key,
         acknowledged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    syncRun: db.prepare(
      `INSERT INTO sync_runs (id, mode, trigger, status, started_at, finished_at, reported_count,
         collected, inserted, updated, next_offset, start_offset, listing_order, unreadable, error)
       VALUES (?, ?, 'schedule', ?, ?, ?, ?, ?, ?, ?, ?, ?, 'newest_first', ?, ?)`,
    ),
    unreadable: db.prepare(
      `INSERT INTO unreadable_listing_rows (fingerprint, raw, problem, position, first_seen_at,
         last_seen_at, first_run_id, last_run_id, resolved_at, resolved_run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    reverse: db.prepare(
      `UPDATE inflows SET status = 'failed', listed_status = 'failed', updated_at = ?,
         status_observed_at = ? WHERE id = ?`,
    ),
    resolution: db.prepare(
      `INSERT INTO exception_resolutions (exception_key, action, bank_reference, note, recorded_by,
         recorded_at) VALUES (?, ?, ?, ?, 'Owner', ?)`,
    ),
  };
}

/** Ids handed out so far (rows reference each other by id, so ids are given, not taken). */
interface Ids {
  account: number;
  sale: number;
  inflow: number;
  syncRun: number;
  /** Sessions made so far: each gets a unique tail. */
  session: number;
}

/** Rows written after their day's sales, in time order (as the app wrote them). */
type Timed = readonly [at: number, write: () => void];

function seed(db: Db, days: number, progress: (done: number) => void): void {
  // WAL would write every page twice (log, then checkpoint). better-sqlite3's defensive mode
  // refuses journal_mode=OFF; MEMORY keeps the rollback journal off the disk.
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  // Every reference is made right here; checking each again would double the lookups.
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -1000000');
  // The migrations' own secondary indexes are dropped while loading and made again from their
  // stored SQL afterwards: one sort per index instead of millions of B-tree insertions.
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL`)
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  const st = statements(db);
  const ids: Ids = { account: 0, sale: 0, inflow: 0, syncRun: 0, session: 0 };
  const counters = db.transaction(() => standingAccounts(st, ids, dayStart(days - 1)))();
  const DAYS_PER_TRANSACTION = 30;
  for (let done = 0; done < days;) {
    const batch = Math.min(DAYS_PER_TRANSACTION, days - done);
    db.transaction(() => {
      for (let i = 0; i < batch; i++) seedDay(st, ids, counters, days - 1 - (done + i));
    })();
    done += batch;
    if (done % (DAYS_PER_TRANSACTION * 12) === 0 || done === days) progress(done);
  }
  db.transaction(() => {
    for (const { sql } of indexes) db.exec(sql);
  })();
}

/** The till's two standing accounts (made on the first day), as static-flex accounts. */
function standingAccounts(st: Statements, ids: Ids, at: number): readonly StandingAccount[] {
  return [1, 2].map((n) => {
    ids.account += 1;
    const reference = `TILLA7K2-${dayClock(at).stamp(at)}-COUNTER-000${n}-${n === 1 ? 'K3J9QF7A' : 'M2P8XW4C'}`;
    const accountNumber = `90${String(31_337_000 + n).padStart(8, '0')}`;
    st.account.run(
      ids.account,
      'static-flex',
      'counter',
      reference,
      `SVA-${ids.account}`,
      accountNumber,
      `COUNTER ${n}/MAMA PUT KITCHEN`,
      'Wema Bank',
      null,
      null,
      null,
      CALLBACK_URL,
      'active',
      at,
      at,
    );
    return { id: ids.account, reference, accountNumber };
  });
}

interface StandingAccount {
  readonly id: number;
  readonly reference: string;
  readonly accountNumber: string;
}

type Outcome =
  | 'paid'
  | 'wrong-then-paid'
  | 'wrong-then-expired'
  | 'expired'
  | 'cancelled'
  | 'failed-to-create'
  | 'paid-late';

/** Cumulative odds of each outcome of a sale. */
const OUTCOMES: readonly (readonly [number, Outcome])[] = [
  [0.895, 'paid'],
  [0.902, 'wrong-then-paid'],
  [0.905, 'wrong-then-expired'],
  [0.95, 'expired'],
  [0.994, 'cancelled'],
  [0.999, 'failed-to-create'],
  [1, 'paid-late'],
];

function outcome(roll: number): Outcome {
  return OUTCOMES.find(([upTo]) => roll < upTo)?.[1] ?? 'paid';
}

/** One business day, `back` days before the last: its own random stream. */
function seedDay(
  st: Statements,
  ids: Ids,
  counters: readonly StandingAccount[],
  back: number,
): void {
  const random = createSeededRandom(0x7e11 + back * 7919).next;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const base32 = (length: number) => {
    let text = '';
    for (let i = 0; i < length; i++) text += BASE32[Math.floor(random() * 32)] ?? '';
    return text;
  };
  const start = dayStart(back);
  const { providerDate, stamp } = dayClock(start);
  const syncAt = start + SYNC_AT_HOUR * HOUR_MS + int(0, 600_000);
  const legacy = back >= LEGACY_DAYS;
  const tillId = legacy ? LEGACY_TILL_ID : THIS_TILL_ID;
  const prefix = legacy ? 'TILL1' : 'TILLA7K2';
  const runId = base32(6);
  const later: Timed[] = [];
  let sequence = 0;

  const newSession = (at: number): string => {
    ids.session += 1;
    return `100004${stamp(at).slice(2)}${String(ids.session).padStart(12, '0')}`;
  };
  const amount = () => 100 * 50 * Math.round(Math.exp(Math.log(6) + random() * Math.log(400)));

  /** An inflow as the end-of-day listing leaves it (plus its callback, when one came). */
  const inflow = (row: {
    readonly sessionId: string;
    readonly reference: string | null;
    readonly amountKobo: number;
    readonly status: 'success' | 'failed' | 'pending';
    readonly occurredAt: number;
    readonly source: 'callback' | 'poll' | 'listing';
    readonly seenAt: number;
    readonly saleId: number | null;
    readonly accountId: number | null;
    readonly accountNumber: string | null;
    readonly outcome: string | null;
  }): { id: number } => {
    // Ids in the order the rows were written (by time), as the app gives them.
    const written = { id: 0 };
    const listed = Math.max(syncAt + 5_000, row.seenAt);
    later.push([
      row.occurredAt,
      () => {
        ids.inflow += 1;
        written.id = ids.inflow;
        st.inflow.run(
          written.id,
          row.sessionId,
          row.reference,
          row.amountKobo,
          row.status,
          providerDate(row.occurredAt),
          row.occurredAt,
          row.source,
          row.saleId,
          row.accountId,
          row.seenAt,
          listed,
          listed,
          row.status,
          listed,
        );
      },
    ]);
    if (row.source === 'callback') {
      // As the listener stores them (JSON text), written out directly: millions of them.
      const payload =
        `{"event":"payment.${row.status === 'failed' ? 'failed' : 'success'}",` +
        `"reference":"${row.reference ?? ''}","external_reference":"${row.reference ?? ''}",` +
        `"account_number":"${row.accountNumber ?? ''}","session_id":"${row.sessionId}",` +
        `"amount":${row.amountKobo / 100},"status":"${row.status}",` +
        `"date":"${providerDate(row.occurredAt)}",` +
        `"type":"${row.saleId === null ? 'static-flex' : 'nonstatic'}"}`;
      const headers =
        `{"host":"till-a7k2.ngrok.app","user-agent":"PaymentGateway-Webhook/2.1",` +
        `"content-length":"${payload.length}","content-type":"application/json",` +
        `"x-forwarded-for":"102.89.${int(0, 255)}.${int(1, 254)}","x-forwarded-proto":"https",` +
        `"accept-encoding":"gzip"}`;
      const receivedAt = row.seenAt - int(150, 900);
      later.push([
        receivedAt,
        () =>
          st.callback.run(
            receivedAt,
            headers,
            payload,
            row.reference,
            row.sessionId,
            row.amountKobo,
            row.status,
            row.seenAt + int(20, 400),
            row.outcome,
          ),
      ]);
    }
    return written;
  };

  const alert = (
    at: number,
    level: 'info' | 'warning' | 'error',
    kind: string,
    saleId: number | null,
    sessionId: string | null,
    message: string,
    dedupeKey: string,
  ) => {
    // Acknowledged within the day, except the last week's, some of which are still open.
    const acknowledged = back > 7 || random() < 0.5 ? at + int(60_000, 8 * HOUR_MS) : null;
    later.push([
      at,
      () => st.alert.run(at, level, kind, saleId, sessionId, message, dedupeKey, acknowledged),
    ]);
  };

  // This till's sales, in the order they were made.
  const made = Float64Array.from({ length: SALES_PER_DAY }, () =>
    Math.floor(random() * OPEN_HOURS * HOUR_MS),
  ).sort();
  let ownInflows = 0;
  /** The day's last sale paid in time (set from inside the sale loop's helpers). */
  const lastPaid: { sale: { inflow: { id: number }; sessionId: string; saleId: number } | null } = {
    sale: null,
  };
  for (const offset of made) {
    const createdAt = start + OPENS_AT_HOUR * HOUR_MS + offset;
    sequence += 1;
    ids.sale += 1;
    ids.account += 1;
    const saleId = ids.sale;
    const accountId = ids.account;
    const reference = `${prefix}-${stamp(createdAt)}-${runId}-${String(sequence).padStart(4, '0')}-${base32(8)}`;
    const amountKobo = amount();
    const cashier = random() < 0.04 ? null : pick(CASHIERS);
    const note = random() < 0.05 ? pick(NOTES) : null;
    const fate = outcome(random());
    const activeAt = createdAt + int(700, 2_500);
    const expiresAt = createdAt + EXPIRY_MINUTES * 60_000;
    const accountNumber = `${int(60, 99)}${String(int(0, 99_999_999)).padStart(8, '0')}`;
    const created = fate !== 'failed-to-create';
    st.account.run(
      accountId,
      'nonstatic',
      'sale',
      reference,
      created ? `VA-${accountId}` : null,
      created ? accountNumber : null,
      created ? 'TT/MAMA PUT KITCHEN' : null,
      created ? 'Wema Bank' : null,
      amountKobo,
      EXPIRY_MINUTES,
      created ? expiresAt : null,
      CALLBACK_URL,
      created ? 'active' : 'failed_to_create',
      createdAt,
      created ? activeAt : createdAt + 10_000,
    );

    const events: [
      at: number,
      from: string | null,
      to: string,
      cause: string,
      detail: string | null,
    ][] = [[createdAt, null, 'creating', 'cashier', null]];
    /** The sale row as its last change left it. */
    const now: {
      state: string;
      reason: string | null;
      paidSession: string | null;
      paidAt: number | null;
    } = { state: 'creating', reason: null, paidSession: null, paidAt: null };
    const move = (at: number, to: string, cause: string, detail: string | null = null) => {
      events.push([at, now.state, to, cause, detail]);
      now.state = to;
    };
    const pay = (at: number, late: boolean) => {
      const viaPoll = random() < 0.03;
      const pending = !late && random() < 0.01;
      const occurredAt = at - (at % 1000);
      const sessionId = newSession(occurredAt);
      const seenAt = occurredAt + (viaPoll ? int(10_000, 60_000) : int(600, 3_000));
      const detail = JSON.stringify({ sessionId, providerDate: providerDate(occurredAt) });
      if (pending) move(seenAt - 400, 'confirming', 'callback-pending');
      const confirmedAt = pending ? seenAt + int(30_000, 120_000) : seenAt + int(100, 600);
      const source = pending || viaPoll ? 'poll' : 'callback';
      const written = inflow({
        sessionId,
        reference,
        amountKobo,
        status: 'success',
        occurredAt,
        source,
        seenAt,
        saleId,
        accountId,
        accountNumber,
        outcome: late ? 'confirmed-late' : 'confirmed',
      });
      ownInflows += 1;
      if (pending) {
        later.push([
          confirmedAt,
          () => st.history.run(written.id, confirmedAt, confirmedAt, 'pending', 'success', 'poll'),
        ]);
      }
      move(
        confirmedAt,
        late ? 'paid_late' : 'paid',
        late ? `${source}-confirmed-after-expired` : `${source}-confirmed`,
        detail,
      );
      now.reason = late ? 'Paid after the sale was expired.' : null;
      now.paidSession = sessionId;
      now.paidAt = confirmedAt;
      if (!late) lastPaid.sale = { inflow: written, sessionId, saleId };
      return { sessionId, at: confirmedAt };
    };
    const wrong = (at: number) => {
      const occurredAt = at - (at % 1000);
      const sessionId = newSession(occurredAt);
      const seenAt = occurredAt + int(600, 3_000);
      inflow({
        sessionId,
        reference,
        amountKobo: amountKobo + (random() < 0.5 ? -5_000 : 10_000),
        status: 'failed',
        occurredAt,
        source: 'callback',
        seenAt,
        saleId,
        accountId,
        accountNumber,
        outcome: 'not-confirmed:wrong_amount',
      });
      ownInflows += 1;
      move(seenAt + 300, 'wrong_amount', 'callback-wrong-amount', JSON.stringify({ sessionId }));
      now.reason = 'The customer sent a different amount: the transfer was refused.';
    };
    const expire = () => {
      move(expiresAt + int(2_000, 30_000), 'expired', 'deadline');
      now.reason = 'No payment arrived before the deadline.';
    };

    if (created) move(activeAt, 'awaiting_payment', 'account-created');
    switch (fate) {
      case 'paid':
        pay(activeAt + int(15_000, 6 * 60_000), false);
        break;
      case 'wrong-then-paid':
        wrong(activeAt + int(30_000, 3 * 60_000));
        pay(activeAt + int(4 * 60_000, 12 * 60_000), false);
        break;
      case 'wrong-then-expired':
        wrong(activeAt + int(30_000, 3 * 60_000));
        expire();
        break;
      case 'expired':
        expire();
        break;
      case 'cancelled':
        move(activeAt + int(20_000, 5 * 60_000), 'cancelled', 'cashier');
        now.reason = 'Cancelled by the cashier.';
        break;
      case 'failed-to-create':
        move(createdAt + 10_000, 'failed_to_create', 'create-error');
        now.reason = 'The provider did not answer. Retry the sale.';
        break;
      case 'paid-late': {
        expire();
        const { sessionId, at } = pay(expiresAt + int(60_000, 20 * 60_000), true);
        alert(
          at,
          'error',
          'paid_late',
          saleId,
          sessionId,
          `LATE PAYMENT: sale #${saleId} (₦${amountKobo / 100}) was paid after it was expired. The money arrived: give the goods or refund the customer.`,
          `paid_late:${saleId}`,
        );
        if (back > 7) {
          const refunded = random() < 0.4;
          later.push([
            at + HOUR_MS,
            () =>
              st.resolution.run(
                `paid_late:sale:${saleId}`,
                refunded ? 'refunded' : 'goods_given',
                refunded ? `NIP${base32(12)}` : null,
                null,
                at + HOUR_MS,
              ),
          ]);
        }
        break;
      }
    }
    const last = events[events.length - 1];
    st.sale.run(
      saleId,
      amountKobo,
      note,
      cashier,
      tillId,
      now.state,
      now.reason,
      reference,
      accountId,
      created ? expiresAt : null,
      now.paidSession,
      now.paidAt,
      createdAt,
      last?.[0] ?? createdAt,
    );
    for (const [at, from, to, cause, detail] of events) {
      later.push([at, () => st.event.run(saleId, at, from, to, cause, detail)]);
    }
  }

  // The rest of the day's listing: standing accounts, the other tills, a stranger now and then.
  for (let n = ownInflows; n < INFLOWS_PER_DAY; n++) {
    const occurredAt = start + OPENS_AT_HOUR * HOUR_MS + int(0, OPEN_HOURS * 3_600) * 1000;
    const sessionId = newSession(occurredAt);
    const roll = random();
    if (roll < 0.55) {
      const counter = pick(counters);
      inflow({
        sessionId,
        reference: counter.reference,
        amountKobo: amount(),
        status: 'success',
        occurredAt,
        source: 'callback',
        seenAt: occurredAt + int(600, 3_000),
        saleId: null,
        accountId: counter.id,
        accountNumber: counter.accountNumber,
        outcome: 'counter-payment',
      });
    } else {
      const other = pick(OTHER_TILL_PREFIXES);
      const stranger = roll > 0.995;
      const status = random() < 0.985 ? 'success' : random() < 0.5 ? 'failed' : 'pending';
      inflow({
        sessionId,
        reference: stranger
          ? `POS-${int(1_000_000, 9_999_999)}`
          : `${other}-${stamp(occurredAt - 60_000)}-${base32(6)}-${String(int(1, 400)).padStart(4, '0')}-${base32(8)}`,
        amountKobo: amount(),
        status,
        occurredAt,
        source: 'listing',
        seenAt: syncAt + 5_000,
        saleId: null,
        accountId: null,
        accountNumber: null,
        outcome: null,
      });
    }
  }

  // A reversal now and then: the day's last paid sale's transfer, later reported as failed.
  const reversed = lastPaid.sale;
  if (reversed && random() < 1 / 180) {
    const reversedAt = syncAt + 10_000;
    later.push([
      reversedAt,
      () => {
        st.reverse.run(reversedAt, reversedAt, reversed.inflow.id);
        st.history.run(reversed.inflow.id, reversedAt, reversedAt, 'success', 'failed', 'listing');
        st.alert.run(
          reversedAt,
          'error',
          'payment_reversed',
          reversed.saleId,
          reversed.sessionId,
          `PAYMENT REVERSED: sale #${reversed.saleId} was paid by transfer ${reversed.sessionId}, which the provider now reports as failed.`,
          `status_change:${reversed.sessionId}:success:failed`,
          back > 7 ? reversedAt + HOUR_MS : null,
        );
      },
    ]);
  }

  // Inserted in the order the app wrote them; the sync run last, as it finishes after them.
  later.sort((a, b) => a[0] - b[0]);
  for (const [, write] of later) write();
  ids.syncRun += 1;
  const failedSync = random() < 0.01;
  // A listing row the client could not read, about once a quarter; the last one stays open.
  const unreadable = !failedSync && (random() < 1 / 90 || back === 20);
  const listedOnly = INFLOWS_PER_DAY - ownInflows;
  st.syncRun.run(
    ids.syncRun,
    back % 7 === 0 ? 'full' : 'incremental',
    failedSync ? 'failed' : 'complete',
    syncAt,
    syncAt + int(4_000, 40_000),
    INFLOWS_PER_DAY,
    failedSync ? int(0, 400) : INFLOWS_PER_DAY,
    failedSync ? 0 : listedOnly,
    failedSync ? 0 : ownInflows,
    failedSync ? 0 : INFLOWS_PER_DAY,
    0,
    unreadable ? 1 : 0,
    failedSync ? 'The provider did not answer (timeout).' : null,
  );
  if (unreadable) {
    const open = back === 20;
    st.unreadable.run(
      `fp-${back}-${base32(10)}`,
      JSON.stringify({ session_id: null, amount: 'N/A', status: 'success' }),
      'session_id: missing',
      int(0, 999),
      syncAt,
      syncAt,
      ids.syncRun,
      ids.syncRun,
      open ? null : syncAt + 7 * DAY_MS,
      null,
    );
  }
}
