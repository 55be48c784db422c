import { useContext } from 'react';
import { connectionOf } from './bridge';
import { useConnectionView } from './bridge/use-connection';
import { BridgeContext } from './bridge-context';
import { useNow } from './use-now';

/** A device clock this far from the till service's gets a quiet notice. */
export const CLOCK_NOTICE_MS = 60_000;

/**
 * The till service's clock minus this device's, as the event stream last measured it; 0 where
 * there is nothing to measure against (the desktop app shares main's clock) or not yet measured.
 */
export function useClockOffset(): number {
  const bridge = useContext(BridgeContext);
  const view = useConnectionView(bridge ? connectionOf(bridge) : null);
  return view?.clockOffsetMs ?? 0;
}

/**
 * The till service's time, refreshed every `intervalMs`: what every countdown and "expired"
 * counts against. A tablet ten minutes fast still shows a fresh 15-minute sale as 15:00.
 */
export function useServerNow(intervalMs = 1000): number {
  return useNow(intervalMs) + useClockOffset();
}

/**
 * The till service cannot be reached now (the page lost it, or main refused this page): every
 * "live" claim goes, and actions that need the service are disabled until it is back.
 */
export function useServiceLost(): boolean {
  const bridge = useContext(BridgeContext);
  const view = useConnectionView(bridge ? connectionOf(bridge) : null);
  return view?.state === 'offline' || view?.state === 'refused';
}
