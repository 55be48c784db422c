import { act } from '@testing-library/react';
import { vi, type Mock } from 'vitest';
import type { BridgeEvent, BridgeResult, ChannelName, WindowApi } from '#shared/bridge/contract';
import { appInfo, ok, session, settingsView, status } from './fixtures';

type ChannelMocks = { readonly [C in ChannelName]: Mock<WindowApi[C]> };

export type FakeBridge = ChannelMocks & {
  readonly subscribe: Mock<WindowApi['subscribe']>;
  /** Pushes an event to every subscriber, inside act() so React settles. */
  readonly emit: (event: BridgeEvent) => void;
  readonly listenerCount: () => number;
};

function unstubbed<T>(name: ChannelName): () => Promise<BridgeResult<T>> {
  return () =>
    Promise.resolve({
      ok: false,
      error: { code: 'INTERNAL', message: `${name} was not stubbed in this test` },
    });
}

/**
 * A WindowApi with a vi.fn per channel. The shell's own calls (getAppInfo, getStatus,
 * getSession, getActivity, getSettings) answer plausibly (an owner with no PIN set); every other
 * channel fails until a test stubs it.
 */
export function createFakeBridge(): FakeBridge {
  const listeners = new Set<(event: BridgeEvent) => void>();
  const mocks = {
    getAppInfo: vi.fn<WindowApi['getAppInfo']>(() => ok(appInfo())),
    getStatus: vi.fn<WindowApi['getStatus']>(() => ok(status())),
    getSession: vi.fn<WindowApi['getSession']>(() => ok(session())),
    signIn: vi.fn<WindowApi['signIn']>(unstubbed('signIn')),
    signOut: vi.fn<WindowApi['signOut']>(unstubbed('signOut')),
    unlockOwner: vi.fn<WindowApi['unlockOwner']>(unstubbed('unlockOwner')),
    lock: vi.fn<WindowApi['lock']>(unstubbed('lock')),
    setOwnerPin: vi.fn<WindowApi['setOwnerPin']>(unstubbed('setOwnerPin')),
    removeOwnerPin: vi.fn<WindowApi['removeOwnerPin']>(unstubbed('removeOwnerPin')),
    setCashierPin: vi.fn<WindowApi['setCashierPin']>(unstubbed('setCashierPin')),
    createSale: vi.fn<WindowApi['createSale']>(unstubbed('createSale')),
    createOutageSale: vi.fn<WindowApi['createOutageSale']>(unstubbed('createOutageSale')),
    recordOutageAction: vi.fn<WindowApi['recordOutageAction']>(unstubbed('recordOutageAction')),
    // A till that has not made its standing account for outages yet.
    getOutageAccount: vi.fn<WindowApi['getOutageAccount']>(() => ok(null)),
    getSale: vi.fn<WindowApi['getSale']>(unstubbed('getSale')),
    cancelSale: vi.fn<WindowApi['cancelSale']>(unstubbed('cancelSale')),
    customerSaysPaid: vi.fn<WindowApi['customerSaysPaid']>(unstubbed('customerSaysPaid')),
    retrySale: vi.fn<WindowApi['retrySale']>(unstubbed('retrySale')),
    getReceipt: vi.fn<WindowApi['getReceipt']>(unstubbed('getReceipt')),
    // The browser shell's answers: receipts go through the print dialog, 80 mm paper.
    getPrintSetup: vi.fn<WindowApi['getPrintSetup']>(() =>
      ok({ paperWidthMm: 80, printerName: null, silent: false }),
    ),
    printReceipt: vi.fn<WindowApi['printReceipt']>(() =>
      ok({ mode: 'dialog', reason: 'not-desktop' }),
    ),
    getActivity: vi.fn<WindowApi['getActivity']>(() =>
      ok({ sales: [], inflows: [], alerts: [], standingAccounts: [] }),
    ),
    acknowledgeAlert: vi.fn<WindowApi['acknowledgeAlert']>(unstubbed('acknowledgeAlert')),
    assignOutagePayment: vi.fn<WindowApi['assignOutagePayment']>(unstubbed('assignOutagePayment')),
    createStandingAccount: vi.fn<WindowApi['createStandingAccount']>(
      unstubbed('createStandingAccount'),
    ),
    syncTransactions: vi.fn<WindowApi['syncTransactions']>(unstubbed('syncTransactions')),
    cancelSync: vi.fn<WindowApi['cancelSync']>(unstubbed('cancelSync')),
    getZReport: vi.fn<WindowApi['getZReport']>(unstubbed('getZReport')),
    getTrend: vi.fn<WindowApi['getTrend']>(unstubbed('getTrend')),
    listTransactions: vi.fn<WindowApi['listTransactions']>(unstubbed('listTransactions')),
    exportCsv: vi.fn<WindowApi['exportCsv']>(unstubbed('exportCsv')),
    exportPdf: vi.fn<WindowApi['exportPdf']>(unstubbed('exportPdf')),
    resolveException: vi.fn<WindowApi['resolveException']>(unstubbed('resolveException')),
    reopenException: vi.fn<WindowApi['reopenException']>(unstubbed('reopenException')),
    getBalance: vi.fn<WindowApi['getBalance']>(unstubbed('getBalance')),
    checkPayout: vi.fn<WindowApi['checkPayout']>(unstubbed('checkPayout')),
    getSettings: vi.fn<WindowApi['getSettings']>(() => ok(settingsView())),
    updateSettings: vi.fn<WindowApi['updateSettings']>(unstubbed('updateSettings')),
    setShopName: vi.fn<WindowApi['setShopName']>(unstubbed('setShopName')),
    getSecrets: vi.fn<WindowApi['getSecrets']>(unstubbed('getSecrets')),
    setSecret: vi.fn<WindowApi['setSecret']>(unstubbed('setSecret')),
    testConnection: vi.fn<WindowApi['testConnection']>(unstubbed('testConnection')),
    rotateCallbackToken: vi.fn<WindowApi['rotateCallbackToken']>(unstubbed('rotateCallbackToken')),
    testCallbacks: vi.fn<WindowApi['testCallbacks']>(unstubbed('testCallbacks')),
    saveConnection: vi.fn<WindowApi['saveConnection']>(unstubbed('saveConnection')),
    checkEverything: vi.fn<WindowApi['checkEverything']>(unstubbed('checkEverything')),
    listPrinters: vi.fn<WindowApi['listPrinters']>(() =>
      ok({ canPrintSilently: false, printers: [] }),
    ),
    // A screen's render error is reported whatever the test: it answers like main does.
    reportRendererError: vi.fn<WindowApi['reportRendererError']>(() => ok({ logged: true })),
    rotateShellToken: vi.fn<WindowApi['rotateShellToken']>(unstubbed('rotateShellToken')),
    getHub: vi.fn<WindowApi['getHub']>(unstubbed('getHub')),
    setLanListener: vi.fn<WindowApi['setLanListener']>(unstubbed('setLanListener')),
    createPairingLink: vi.fn<WindowApi['createPairingLink']>(unstubbed('createPairingLink')),
    updateCounter: vi.fn<WindowApi['updateCounter']>(unstubbed('updateCounter')),
    revokeCounter: vi.fn<WindowApi['revokeCounter']>(unstubbed('revokeCounter')),
  } satisfies ChannelMocks;

  const subscribe = vi.fn<WindowApi['subscribe']>((listener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  });

  return {
    ...mocks,
    subscribe,
    emit: (event) => {
      act(() => {
        for (const listener of listeners) listener(event);
      });
    },
    listenerCount: () => listeners.size,
  };
}
