import { describe, expect, it } from 'vitest';
import type { OtherTillTotal, ZReportView } from '#shared/views';
import type { PairedCounterRow } from '#main/store/paired-counters-repo';
import { nameCounterTills } from './counter-names';

function report(otherTills: readonly OtherTillTotal[]): ZReportView {
  return { shop: { otherTills } } as ZReportView;
}

function counter(id: number, name: string, tillId: string, revokedAt: number | null = null) {
  const row: PairedCounterRow = { id, name, tillId, pairedAt: 0, lastContactAt: null, revokedAt };
  return row;
}

describe("the report's other tills, named after the counters paired here", () => {
  it('names a till by its prefix; a live counter wins over a revoked one, then the newest', () => {
    const tills: OtherTillTotal[] = [
      { tillPrefix: 'TILLFRNT', count: 2, amountKobo: 300 },
      { tillPrefix: 'TILLDOOR', count: 1, amountKobo: 200 },
      { tillPrefix: 'TILLGONE', count: 1, amountKobo: 100 },
      { tillPrefix: 'OTHERHUB', count: 1, amountKobo: 50 },
    ];
    const named = nameCounterTills(report(tills), [
      counter(5, 'Door counter (new)', 'till-door'),
      counter(4, 'Door counter (old)', 'till-door', 10),
      counter(3, 'Stolen tablet', 'till-gone', 20),
      counter(2, 'Stolen tablet (earlier)', 'TILL-GONE', 5),
      counter(1, 'Front counter', 'till-frnt'),
    ]);
    expect(named.shop.otherTills).toEqual([
      { tillPrefix: 'TILLFRNT', count: 2, amountKobo: 300, counterName: 'Front counter' },
      { tillPrefix: 'TILLDOOR', count: 1, amountKobo: 200, counterName: 'Door counter (new)' },
      { tillPrefix: 'TILLGONE', count: 1, amountKobo: 100, counterName: 'Stolen tablet' },
      { tillPrefix: 'OTHERHUB', count: 1, amountKobo: 50 },
    ]);
  });
});
