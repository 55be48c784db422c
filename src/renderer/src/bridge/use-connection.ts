import { useCallback, useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import type { ConnectionView } from './event-stream';
import type { Connection } from './http-bridge';

const NO_SUBSCRIPTION = () => () => undefined;

/** The connection's state, re-rendered on every change; null when there is none (desktop). */
export function useConnectionView(connection: Connection | null): ConnectionView | null {
  const subscribe = useCallback(
    (onChange: () => void) =>
      connection ? connection.subscribe(() => onChange()) : NO_SUBSCRIPTION(),
    [connection],
  );
  const snapshot = useCallback(() => connection?.view() ?? null, [connection]);
  return useSyncExternalStore(subscribe, snapshot);
}

/**
 * Calls `listener` when main answers again after an outage, or says the page must re-read.
 * The listener may change on every render; the subscription does not.
 */
export function useReconnected(
  connection: Connection | null,
  listener: (info: { readonly resync: boolean }) => void,
): void {
  const onReconnected = useEffectEvent((info: { readonly resync: boolean }) => listener(info));
  useEffect(
    () => (connection ? connection.onReconnected((info) => onReconnected(info)) : undefined),
    [connection],
  );
}
