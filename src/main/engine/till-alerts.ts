import type { AlertView } from '#shared/sales';
import { raiseAlert, type NewAlert } from '#main/store/alerts-repo';
import type { Db } from '#main/store/database';
import { alertView } from './row-views';

export type { NewAlert } from '#main/store/alerts-repo';

/**
 * An alert about the till rather than one sale (a full disk, a key, the callback address, a
 * startup problem): stored once by its dedupe key. Its view for every page, or null when it
 * was raised already.
 */
export function raiseTillAlert(db: Db, alert: NewAlert, at: number): AlertView | null {
  const row = raiseAlert(db, alert, at);
  return row ? alertView(row) : null;
}
