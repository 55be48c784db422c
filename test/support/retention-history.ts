import { createSeededRandom } from '#main/sandbox/seeded-random';
import type { Db } from '#main/store/database';
import type { ShopModel } from './shop-history';

const DAY_MS = 86_400_000;

/**
 * What the listener, the alerts and the sync leave beside a shop's money (generateShop): one
 * logged callback per inflow (some never processed), unreadable callbacks (malformed, and readable
 * but naming nothing), alerts (acknowledged or open), a sync run a day and unreadable listing
 * rows (resolved or open), spread over [startMs, endMs).
 */
export function addRetentionHistory(
  db: Db,
  shop: ShopModel,
  options: { readonly seed: number; readonly startMs: number; readonly endMs: number },
): void {
  const random = createSeededRandom(options.seed).next;
  const at = () => options.startMs + Math.floor(random() * (options.endMs - options.startMs));
  const callback = db.prepare(
    `INSERT INTO callback_log (received_at, remote_address, method, content_type, headers, body,
       parse_status, hint_reference, hint_session_id, hint_amount_kobo, hint_status,
       processed_at, outcome) VALUES (?, '10.0.0.9', 'POST', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const headers = JSON.stringify({ 'content-type': 'application/json', 'user-agent': 'provider' });
  // Inserted in the order they arrived, as the listener does (ids follow received_at).
  const callbacks: unknown[][] = [];
  shop.inflows.forEach((inflow, n) => {
    const body = JSON.stringify({
      reference: inflow.reference,
      session_id: inflow.sessionId,
      amount: inflow.amountKobo / 100,
      status: inflow.status,
    });
    const processed = n % 37 === 0 ? null : inflow.occurredAt + 900;
    callbacks.push([
      inflow.occurredAt + 500,
      'application/json',
      headers,
      body,
      'ok',
      inflow.reference,
      inflow.sessionId,
      inflow.amountKobo,
      inflow.status,
      processed,
      processed === null ? null : 'confirmed',
    ]);
  });
  for (let n = 0; n < 60; n++) {
    const t = at();
    const malformed = n % 2 === 0;
    callbacks.push([
      t,
      malformed ? 'text/plain' : 'application/json',
      headers,
      malformed ? `not json ${n}` : JSON.stringify({ hello: n }),
      malformed ? 'malformed' : 'ok',
      null,
      null,
      null,
      null,
      t + 10,
      'unknown-reference',
    ]);
  }
  callbacks.sort((a, b) => (a[0] as number) - (b[0] as number));
  db.transaction(() => {
    for (const row of callbacks) callback.run(...row);
    const alert = db.prepare(
      `INSERT INTO alerts (created_at, level, kind, message, acknowledged_at) VALUES (?, ?, ?, ?, ?)`,
    );
    for (let n = 0; n < 80; n++) {
      const t = at();
      alert.run(t, 'warning', 'test', `alert ${n}`, n % 3 === 0 ? null : t + DAY_MS);
    }
    const run = db.prepare(
      `INSERT INTO sync_runs (mode, trigger, status, started_at, finished_at, reported_count,
         collected, next_offset, listing_order) VALUES ('full', 'schedule', 'complete', ?, ?, 0, 0, 0,
         'oldest_first')`,
    );
    const runIds: number[] = [];
    for (let t = options.startMs; t < options.endMs; t += DAY_MS) {
      runIds.push(Number(run.run(t, t + 1_000).lastInsertRowid));
    }
    const unreadable = db.prepare(
      `INSERT INTO unreadable_listing_rows (fingerprint, raw, problem, position, first_seen_at,
         last_seen_at, first_run_id, last_run_id, resolved_at, resolved_run_id)
       VALUES (?, ?, 'no session id', 0, ?, ?, ?, ?, ?, ?)`,
    );
    for (let n = 0; n < 20; n++) {
      const index = Math.floor(random() * runIds.length);
      const runId = runIds[index] ?? 1;
      const t = options.startMs + index * DAY_MS;
      const resolved = n % 2 === 0;
      unreadable.run(
        `fp-${n}`,
        `{"row":${n}}`,
        t,
        t,
        runId,
        runId,
        resolved ? t + DAY_MS : null,
        resolved ? runId : null,
      );
    }
  })();
}
