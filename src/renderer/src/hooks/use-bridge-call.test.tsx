import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '#shared/bridge/contract';
import type { SaleView } from '#shared/sales';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import { fail, ok, sale } from '#support/renderer/fixtures';
import { BridgeProvider } from '../bridge-context';
import { failureOf, useBridgeCall } from './use-bridge-call';

function withBridge(bridge: FakeBridge) {
  return ({ children }: { readonly children: ReactNode }) => (
    <BridgeProvider bridge={bridge}>{children}</BridgeProvider>
  );
}

/** An answer the test hands over when it chooses. */
function deferred<T>() {
  let resolve: (value: BridgeResult<T>) => void = () => undefined;
  const promise = new Promise<BridgeResult<T>>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('useBridgeCall', () => {
  it('is busy while the call runs, then holds the answer', async () => {
    const bridge = createFakeBridge();
    const answer = deferred<SaleView>();
    bridge.getSale.mockImplementation(() => answer.promise);
    const { result } = renderHook(() => useBridgeCall<SaleView>(), { wrapper: withBridge(bridge) });
    let pending: Promise<BridgeResult<SaleView> | null> = Promise.resolve(null);
    act(() => {
      pending = result.current.run((b) => b.getSale({ saleId: 4 }));
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      answer.resolve({ ok: true, value: sale({ id: 4 }) });
      await pending;
    });
    expect(bridge.getSale).toHaveBeenCalledWith({ saleId: 4 });
    expect(result.current.busy).toBe(false);
    expect(result.current.result?.id).toBe(4);
    expect(result.current.error).toBeNull();
  });

  it("puts main's refusal in the cashier's words, with the field it names", async () => {
    const bridge = createFakeBridge();
    bridge.createSale.mockImplementation(() =>
      fail('INVALID_AMOUNT', 'amount: Enter an amount above zero', 'amount'),
    );
    const { result } = renderHook(() => useBridgeCall<SaleView>(), { wrapper: withBridge(bridge) });
    let answer: BridgeResult<SaleView> | null = null;
    await act(async () => {
      answer = await result.current.run((b) => b.createSale({ amount: '0' }));
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_AMOUNT' } });
    expect(result.current.error).toBe('Enter an amount above zero');
    expect(result.current.errorField).toBe('amount');
    expect(result.current.busy).toBe(false);
    // The next call clears it as it starts.
    bridge.createSale.mockImplementation(() => ok(sale()));
    await act(async () => {
      await result.current.run((b) => b.createSale({ amount: '5' }));
    });
    expect(result.current.error).toBeNull();
    expect(result.current.errorField).toBeNull();
  });

  it('drops an answer overtaken by a newer call', async () => {
    const bridge = createFakeBridge();
    const first = deferred<SaleView>();
    const second = deferred<SaleView>();
    bridge.getSale.mockImplementationOnce(() => first.promise);
    bridge.getSale.mockImplementationOnce(() => second.promise);
    const { result } = renderHook(() => useBridgeCall<SaleView>(), { wrapper: withBridge(bridge) });
    let older: Promise<BridgeResult<SaleView> | null> = Promise.resolve(null);
    let newer: Promise<BridgeResult<SaleView> | null> = Promise.resolve(null);
    act(() => {
      older = result.current.run((b) => b.getSale({ saleId: 1 }));
      newer = result.current.run((b) => b.getSale({ saleId: 2 }));
    });
    await act(async () => {
      second.resolve({ ok: true, value: sale({ id: 2 }) });
      await newer;
    });
    await act(async () => {
      first.resolve({ ok: false, error: { code: 'SALE_NOT_FOUND', message: 'gone' } });
      expect(await older).toBeNull();
    });
    expect(result.current.result?.id).toBe(2);
    expect(result.current.error).toBeNull();
    expect(result.current.busy).toBe(false);
  });

  it('leaves an unmounted screen alone', async () => {
    const bridge = createFakeBridge();
    const answer = deferred<SaleView>();
    bridge.getSale.mockImplementation(() => answer.promise);
    const { result, unmount } = renderHook(() => useBridgeCall<SaleView>(), {
      wrapper: withBridge(bridge),
    });
    let pending: Promise<BridgeResult<SaleView> | null> = Promise.resolve(null);
    act(() => {
      pending = result.current.run((b) => b.getSale({ saleId: 4 }));
    });
    unmount();
    answer.resolve({ ok: true, value: sale({ id: 4 }) });
    expect(await pending).toBeNull();
  });

  it("shows the screen's own words and clears them", () => {
    const { result } = renderHook(() => useBridgeCall<SaleView>(), {
      wrapper: withBridge(createFakeBridge()),
    });
    act(() => result.current.showError('Enter an amount'));
    expect(result.current.error).toBe('Enter an amount');
    act(() => result.current.showError(null));
    expect(result.current.error).toBeNull();
  });
});

describe('failureOf', () => {
  it("keeps the code and the field beside cashierMessage's words", () => {
    expect(failureOf({ code: 'BRIDGE_OFFLINE', message: 'fetch failed' })).toEqual({
      words:
        'The till service is not running or cannot be reached. Start Transfer Till again, then retry.',
      field: null,
      code: 'BRIDGE_OFFLINE',
    });
  });
});
