import { createContext, useContext, useEffect, useEffectEvent, type ReactNode } from 'react';
import type { BridgeEvent, BridgeEvents, EventName, WindowApi } from '#shared/bridge/contract';

/** Exported for hooks that work without a bridge too (the service's clock: 0 offset then). */
export const BridgeContext = createContext<WindowApi | null>(null);

export function BridgeProvider({
  bridge,
  children,
}: {
  readonly bridge: WindowApi;
  readonly children: ReactNode;
}) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

/** The typed window API; screens are only rendered once a bridge exists. */
export function useBridge(): WindowApi {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge() outside <BridgeProvider>');
  return bridge;
}

/**
 * Calls `listener` for every event of the given type. The listener may change on every render;
 * the subscription does not (an effect event calls the newest one).
 */
export function useBridgeEvent<E extends EventName>(
  type: E,
  listener: (payload: BridgeEvents[E]) => void,
): void {
  const bridge = useBridge();
  const onEvent = useEffectEvent((payload: BridgeEvents[E]) => listener(payload));
  useEffect(
    () =>
      bridge.subscribe((event: BridgeEvent) => {
        if (event.type === type) onEvent(event.payload as BridgeEvents[E]);
      }),
    [bridge, type],
  );
}
