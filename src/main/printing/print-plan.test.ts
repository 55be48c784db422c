import { describe, expect, it } from 'vitest';
import {
  MAX_RECEIPT_MM,
  MIN_RECEIPT_MM,
  UNMEASURED_RECEIPT_MM,
  planReceiptPrint,
  receiptPageSize,
} from './print-plan';

const PRINTERS = [{ name: 'XP-80C' }, { name: 'Office_Laser' }];

describe('the receipt print plan', () => {
  it('prints silently in the desktop app to the saved printer, in the saved width', () => {
    expect(
      planReceiptPrint({
        via: 'desktop',
        printerName: 'XP-80C',
        paperWidthMm: 80,
        printers: PRINTERS,
        contentHeightPx: 480,
      }),
    ).toEqual({
      kind: 'silent',
      deviceName: 'XP-80C',
      // 480 px is 127 mm (5 inches), plus 12 mm of feed.
      pageSize: { width: 80_000, height: 139_000 },
    });
    const narrow = planReceiptPrint({
      via: 'desktop',
      printerName: ' XP-80C ',
      paperWidthMm: 58,
      printers: PRINTERS,
    });
    expect(narrow).toEqual({
      kind: 'silent',
      deviceName: 'XP-80C',
      pageSize: { width: 58_000, height: UNMEASURED_RECEIPT_MM * 1000 },
    });
  });

  it('uses the dialog in the browser shell and on a paired counter, whatever is saved', () => {
    for (const via of ['browser', 'counter'] as const) {
      expect(
        planReceiptPrint({ via, printerName: 'XP-80C', paperWidthMm: 80, printers: PRINTERS }),
      ).toEqual({ kind: 'dialog', reason: 'not-desktop' });
    }
    // A desktop core that has no printer access (no Electron printer given) cannot either.
    expect(
      planReceiptPrint({ via: 'desktop', printerName: 'XP-80C', paperWidthMm: 80, printers: null }),
    ).toEqual({ kind: 'dialog', reason: 'not-desktop' });
  });

  it('uses the dialog when no printer is saved, or the saved one is gone', () => {
    expect(
      planReceiptPrint({ via: 'desktop', printerName: '  ', paperWidthMm: 80, printers: PRINTERS }),
    ).toEqual({ kind: 'dialog', reason: 'no-printer-set' });
    expect(
      planReceiptPrint({
        via: 'desktop',
        printerName: 'xp-80c',
        paperWidthMm: 80,
        printers: PRINTERS,
      }),
    ).toEqual({ kind: 'dialog', reason: 'printer-missing' });
    expect(
      planReceiptPrint({ via: 'desktop', printerName: 'XP-80C', paperWidthMm: 80, printers: [] }),
    ).toEqual({ kind: 'dialog', reason: 'printer-missing' });
  });

  it('sizes the slip to the receipt, within bounds, and never below what Electron accepts', () => {
    expect(receiptPageSize(80, 10)).toEqual({ width: 80_000, height: MIN_RECEIPT_MM * 1000 });
    expect(receiptPageSize(58, 1e7)).toEqual({ width: 58_000, height: MAX_RECEIPT_MM * 1000 });
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(receiptPageSize(80, bad).height).toBe(UNMEASURED_RECEIPT_MM * 1000);
    }
    // Whole millimetres, rounded up so the last line is never cut.
    expect(receiptPageSize(80, 481).height).toBe(140_000);
    // Electron refuses a page under 353 microns a side.
    expect(receiptPageSize(58, 1).width).toBeGreaterThan(353);
  });
});
