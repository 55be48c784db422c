import { afterEach, describe, expect, it } from 'vitest';
import { businessDay } from '#shared/provider-time';
import { resolveException } from '#main/reports/exception-resolutions';
import { buildZReport } from '#main/reports/z-report';
import { createHarness, harnessSync, type Harness } from '#support/sales-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The owner's rule in these tests: flag a payment into a standing account above ₦5,000. */
const LIMIT_KOBO = 500_000;
const ZONE = { timeZone: 'Africa/Lagos', cutoffHour: 0 };
const DAY_MS = 86_400_000;

/** The real sandbox over HTTP and a real SQLite file, with a static-flex standing account. */
async function standingWorld(limitKobo = LIMIT_KOBO, personality: Record<string, unknown> = {}) {
  const harness = (h = await createHarness({
    live: true,
    settings: { standingFlagAboveKobo: limitKobo },
  }));
  if (Object.keys(personality).length > 0) await harness.control('/personality', personality);
  const counter = await harness.engine.createStandingAccount({ type: 'static-flex' });
  return { harness, counter, accountNumber: counter.accountNumber ?? '' };
}

function largeAlerts(harness: Harness) {
  return harness.alerts.filter((alert) => alert.kind === 'standing_above_limit');
}

/** The report over the days around the harness's clock (the sandbox dates transfers by it). */
function report(harness: Harness, limitKobo = LIMIT_KOBO) {
  const now = harness.scheduler.now();
  return buildZReport(harness.db, {
    ...ZONE,
    fromDay: businessDay(now - DAY_MS, ZONE),
    toDay: businessDay(now + DAY_MS, ZONE),
    now,
    standingFlagAboveKobo: limitKobo,
  });
}

describe("a payment above the owner's limit into a standing account", () => {
  it('found by its callback and status check: flagged once, with the account, amount and session', async () => {
    const { harness, counter, accountNumber } = await standingWorld();
    await harness.transfer(accountNumber, 4_000);
    await harness.transfer(accountNumber, 5_000); // the limit itself is not above it
    await harness.settle();
    expect(largeAlerts(harness)).toEqual([]);

    const large = await harness.transfer(accountNumber, 60_000);
    await harness.settle();
    const alerts = largeAlerts(harness);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ level: 'warning', sessionId: large['session_id'] });
    expect(alerts[0]?.message).toContain(accountNumber);
    expect(alerts[0]?.message).toContain('₦60,000.00');
    expect(alerts[0]?.message).toContain('ABOVE ₦5,000.00');
    expect(alerts[0]?.message).toContain(String(large['session_id']));

    // The same callback again, and the sync listing the same rows: still one alert.
    await harness.engine.handleCallback(null, {
      reference: counter.reference,
      sessionId: String(large['session_id']),
    });
    expect((await harnessSync(harness).run({ mode: 'full', trigger: 'user' })).status).toBe(
      'complete',
    );
    await harness.settle();
    expect(largeAlerts(harness)).toHaveLength(1);

    // The report lists it (only it) as an exception resolved through the exceptions record.
    const key = `standing_above_limit:session:${String(large['session_id'])}`;
    const found = report(harness).exceptions.filter((e) => e.kind === 'standing_above_limit');
    expect(found).toMatchObject([{ key, amountKobo: 6_000_000, saleId: null, resolution: null }]);
    expect(found[0]?.message).toMatch(
      /^Payment above ₦5,000\.00 into a standing account: check with the customer\. /,
    );
    expect(found[0]?.message).toContain(accountNumber);
    const now = harness.scheduler.now();
    expect(() => resolveException(harness.db, { key, action: 'refunded' }, 'owner', now)).toThrow(
      /bank reference/,
    );
    resolveException(harness.db, { key, action: 'goods_given' }, 'owner', now);
    expect(report(harness).exceptions.find((e) => e.key === key)?.resolution).toMatchObject({
      action: 'goods_given',
      resolvedBy: 'owner',
    });
    // With the rule off the report has no such case.
    expect(report(harness, 0).exceptions.some((e) => e.kind === 'standing_above_limit')).toBe(
      false,
    );
  });

  it('found by the sync when no callback comes', async () => {
    const { harness, accountNumber } = await standingWorld(LIMIT_KOBO, { callbacks: 'never' });
    const large = await harness.transfer(accountNumber, 7_500);
    await harness.transfer(accountNumber, 100);
    await harness.settle();
    expect(largeAlerts(harness)).toEqual([]);
    expect((await harnessSync(harness).run({ mode: 'full', trigger: 'user' })).status).toBe(
      'complete',
    );
    await harness.settle();
    expect(largeAlerts(harness)).toMatchObject([{ sessionId: large['session_id'] }]);
    expect(largeAlerts(harness)[0]?.message).toContain('₦7,500.00');
  });

  it('is off at 0, and never applies to a sale (its amount is fixed)', async () => {
    const { harness, accountNumber } = await standingWorld(0);
    await harness.transfer(accountNumber, 900_000);
    await harness.settle();
    expect(largeAlerts(harness)).toEqual([]);
    await harness.close();
    h = undefined;

    const limited = await standingWorld(100);
    const sale = await limited.harness.engine.createSale({ amountKobo: 5_000_000 });
    await limited.harness.transfer(sale.accountNumber ?? '', 50_000);
    await limited.harness.settle();
    expect(limited.harness.engine.getSale(sale.id).state).toBe('paid');
    expect(largeAlerts(limited.harness)).toEqual([]);
  });
});
