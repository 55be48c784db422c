/**
 * The attribution rule as SQL functions, so that the report's queries filter and group by it
 * inside SQLite (an exception list's LIMIT must apply after the filter) without a second,
 * SQL-only definition of the reference format. Registered once per connection.
 */
import { parseReference } from '#main/provider/references';
import type { Db } from '#main/store/database';
import { ATTRIBUTION_SQL_FUNCTIONS } from '#main/store/z-report-queries';
import { attributeReference, shopLine } from './attribution';

const registered = new WeakSet<Db>();

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function attribution(reference: unknown, tillPrefix: unknown, sale: unknown, counter: unknown) {
  return attributeReference(text(reference), {
    tillPrefix: text(tillPrefix) ?? '',
    // SQLite hands booleans over as integers (0/1); better-sqlite3 may give a bigint.
    localSale: Boolean(sale),
    localStandingAccount: Boolean(counter),
  });
}

/** Makes the functions of ATTRIBUTION_SQL_FUNCTIONS callable on `db` (idempotent). */
export function registerAttributionSql(db: Db): void {
  if (registered.has(db)) return;
  const options = { deterministic: true, varargs: false } as const;
  db.function(
    ATTRIBUTION_SQL_FUNCTIONS.kind,
    options,
    (reference: unknown, tillPrefix: unknown, sale: unknown, counter: unknown) =>
      attribution(reference, tillPrefix, sale, counter).kind,
  );
  db.function(
    ATTRIBUTION_SQL_FUNCTIONS.line,
    options,
    (reference: unknown, tillPrefix: unknown, sale: unknown, counter: unknown) =>
      shopLine(attribution(reference, tillPrefix, sale, counter)),
  );
  db.function(
    ATTRIBUTION_SQL_FUNCTIONS.prefix,
    options,
    (reference: unknown) => parseReference(text(reference))?.tillPrefix ?? null,
  );
  registered.add(db);
}
