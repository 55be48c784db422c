import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  Caller,
  CallerVia,
  Handlers,
  HandlersOf,
  printingChannels,
} from '#shared/bridge/contract';
import type { PrinterView } from '#shared/printing';
import { dispatch } from '#main/bridge/dispatch';
import { withOwnership, type OwnershipLookup } from '#main/auth/ownership';
import { openNodeSettings } from '#main/settings/node-settings';
import { createSettingsStore, type SettingsStore } from '#main/settings/settings-store';
import { PrintError, type ReceiptPrinter, type SilentPrintPlan } from './receipt-printer';
import { printingHandlers } from './printing-handlers';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function settingsIn(dir = mkdtempSync(join(tmpdir(), 'tt-printing-'))): SettingsStore {
  dirs.push(dir);
  return createSettingsStore(openNodeSettings(dir, '0.1.0').backend);
}

/** Electron's printing, the true edge: what it was asked, and the printers it offers. */
function fakePrinter(offered: readonly PrinterView[], fails?: string) {
  const asked: string[] = [];
  const printed: { sessionId: string; plan: SilentPrintPlan }[] = [];
  const printer: ReceiptPrinter = {
    printers: (sessionId) => {
      asked.push(sessionId);
      return Promise.resolve(offered);
    },
    print: (sessionId, plan) => {
      if (fails) return Promise.reject(new PrintError(fails));
      printed.push({ sessionId, plan });
      return Promise.resolve();
    },
  };
  return { printer, asked, printed };
}

const FRONT = { id: 9, name: 'Front counter', tillId: 'till-frnt' } as const;

function caller(via: CallerVia, role: Caller['role'] = 'cashier'): Caller {
  return {
    role,
    name: 'Ada',
    sessionId: `${via}-7`,
    via,
    ...(via === 'counter' ? { counter: FRONT } : {}),
  };
}

/** Every sale here is Ada's, made at the front counter (dispatch checks whose it is). */
const ADAS_SALES: OwnershipLookup = {
  sale: () => ({ cashier: 'Ada', tillId: FRONT.tillId }),
  alert: () => undefined,
};

const XP = { name: 'XP-80C', displayName: 'Xprinter XP-80C' };

function call<C extends 'getPrintSetup' | 'printReceipt' | 'listPrinters'>(
  handlers: HandlersOf<typeof printingChannels>,
  channel: C,
  input: unknown,
  who: Caller,
) {
  // The real dispatch: access levels, input schemas and coded errors as the shells see them.
  return dispatch(
    withOwnership(handlers as Handlers, ADAS_SALES),
    channel,
    input,
    () => undefined,
    who,
  );
}

describe('printing handlers', () => {
  it('prints a receipt silently in the desktop app to the saved printer, in the saved width', async () => {
    const settings = settingsIn();
    settings.update({ printing: { receiptPrinter: 'XP-80C', paperWidthMm: 58 } });
    const { printer, printed } = fakePrinter([XP, { name: 'Office', displayName: 'Office' }]);
    const handlers = printingHandlers({ settings, printer, logger: pino({ level: 'silent' }) });
    const desktop = caller('desktop');

    expect(await call(handlers, 'getPrintSetup', {}, desktop)).toEqual({
      ok: true,
      value: { paperWidthMm: 58, printerName: 'XP-80C', silent: true },
    });
    expect(
      await call(handlers, 'printReceipt', { saleId: 7, contentHeightPx: 480 }, desktop),
    ).toEqual({ ok: true, value: { mode: 'silent', printerName: 'XP-80C' } });
    expect(printed).toEqual([
      {
        sessionId: 'desktop-7',
        plan: {
          kind: 'silent',
          deviceName: 'XP-80C',
          pageSize: { width: 58_000, height: 139_000 },
        },
      },
    ]);
    expect(await call(handlers, 'listPrinters', {}, caller('desktop', 'owner'))).toEqual({
      ok: true,
      value: { canPrintSilently: true, printers: [XP, { name: 'Office', displayName: 'Office' }] },
    });
  });

  it('leaves the browser shell and paired counters to the print dialog', async () => {
    const settings = settingsIn();
    settings.update({ printing: { receiptPrinter: 'XP-80C' } });
    // The browser shell's core has no printer at all...
    const browser = printingHandlers({ settings, logger: pino({ level: 'silent' }) });
    expect(await call(browser, 'printReceipt', { saleId: 7 }, caller('browser'))).toEqual({
      ok: true,
      value: { mode: 'dialog', reason: 'not-desktop' },
    });
    expect(await call(browser, 'getPrintSetup', {}, caller('browser'))).toEqual({
      ok: true,
      value: { paperWidthMm: 80, printerName: 'XP-80C', silent: false },
    });
    expect(await call(browser, 'listPrinters', {}, caller('browser', 'owner'))).toEqual({
      ok: true,
      value: { canPrintSilently: false, printers: [] },
    });
    // ...and a counter paired to a desktop hub prints on its own device, with its dialog.
    const { printer, asked, printed } = fakePrinter([XP]);
    const hub = printingHandlers({ settings, printer, logger: pino({ level: 'silent' }) });
    expect(await call(hub, 'printReceipt', { saleId: 7 }, caller('counter'))).toEqual({
      ok: true,
      value: { mode: 'dialog', reason: 'not-desktop' },
    });
    // A paired counter with nobody signed in (the pairing is its sign-in): the same.
    const paired: Caller = {
      role: 'cashier',
      name: null,
      sessionId: 'counter-9',
      via: 'counter',
      counter: FRONT,
    };
    expect(await call(hub, 'printReceipt', { saleId: 7 }, paired)).toEqual({
      ok: true,
      value: { mode: 'dialog', reason: 'not-desktop' },
    });
    expect(await call(hub, 'getPrintSetup', {}, paired)).toMatchObject({
      ok: true,
      value: { silent: false },
    });
    expect(asked).toEqual([]);
    expect(printed).toEqual([]);
  });

  it('uses the dialog when no printer is saved (without asking the system) or it is gone', async () => {
    const settings = settingsIn();
    const { printer, asked, printed } = fakePrinter([{ name: 'Office', displayName: 'Office' }]);
    const handlers = printingHandlers({ settings, printer, logger: pino({ level: 'silent' }) });
    expect(await call(handlers, 'printReceipt', { saleId: 1 }, caller('desktop'))).toEqual({
      ok: true,
      value: { mode: 'dialog', reason: 'no-printer-set' },
    });
    expect(asked).toEqual([]);
    settings.update({ printing: { receiptPrinter: 'XP-80C' } });
    expect(await call(handlers, 'printReceipt', { saleId: 1 }, caller('desktop'))).toEqual({
      ok: true,
      value: { mode: 'dialog', reason: 'printer-missing' },
    });
    expect(asked).toEqual(['desktop-7']);
    expect(printed).toEqual([]);
  });

  it('answers a failed print with a coded error in words, and refuses owner-only and bad input', async () => {
    const settings = settingsIn();
    settings.update({ printing: { receiptPrinter: 'XP-80C' } });
    const { printer } = fakePrinter(
      [XP],
      'The receipt printer XP-80C did not print (out of paper).',
    );
    const handlers = printingHandlers({ settings, printer, logger: pino({ level: 'silent' }) });
    expect(await call(handlers, 'printReceipt', { saleId: 1 }, caller('desktop'))).toEqual({
      ok: false,
      error: {
        code: 'PRINT_FAILED',
        message: 'The receipt printer XP-80C did not print (out of paper).',
      },
    });
    expect(await call(handlers, 'listPrinters', {}, caller('desktop'))).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(
      await call(handlers, 'printReceipt', { saleId: 1, contentHeightPx: -3 }, caller('desktop')),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', field: 'contentHeightPx' } });
  });

  it('keeps the printer and width in the settings file, and reads an older file as 80 mm', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-printing-'));
    // A settings file from before printing settings existed.
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        shop: { name: 'Old Shop' },
        __internal__: { migrations: { version: '0.1.0' } },
      }),
    );
    const settings = settingsIn(dir);
    expect(settings.get().shop.name).toBe('Old Shop');
    expect(settings.get().printing).toEqual({ receiptPrinter: '', paperWidthMm: 80 });
    settings.update({ printing: { receiptPrinter: 'XP-58', paperWidthMm: 58 } });
    expect(settingsIn(dir).get().printing).toEqual({ receiptPrinter: 'XP-58', paperWidthMm: 58 });
    expect(() => settings.update({ printing: { paperWidthMm: 70 } })).toThrow(/58 or 80 mm/);
  });
});
