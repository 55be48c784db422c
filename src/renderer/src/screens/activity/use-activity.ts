import { useEffect, useReducer, useState } from 'react';
import type { ActivityView, WindowApi } from '#shared/bridge/contract';
import type { AlertView, InflowView, SaleView } from '#shared/sales';
import type { CounterAccountView } from '#shared/views';
import { useBridgeEvent } from '../../bridge-context';
import { cashierMessage } from '../../errors';

/** Today's activity as main answered it, kept up to date by its events. */
export interface ActivityState {
  readonly loaded: boolean;
  readonly error: string | null;
  readonly sales: readonly SaleView[];
  readonly inflows: readonly InflowView[];
  readonly alerts: readonly AlertView[];
  readonly counters: readonly CounterAccountView[];
}

export type ActivityAction =
  | { readonly type: 'loaded'; readonly activity: ActivityView }
  | { readonly type: 'load-failed'; readonly error: string }
  | { readonly type: 'sale'; readonly sale: SaleView }
  | { readonly type: 'inflow'; readonly inflow: InflowView }
  | { readonly type: 'alert'; readonly alert: AlertView }
  | { readonly type: 'acknowledged'; readonly alertId: AlertView['id']; readonly at: number }
  | { readonly type: 'counter'; readonly counter: CounterAccountView };

export const NO_ACTIVITY: ActivityState = {
  loaded: false,
  error: null,
  sales: [],
  inflows: [],
  alerts: [],
  counters: [],
};

/** Replaces the item with the same key, or puts a new one first (the newest on top). */
function upsertBy<T, K>(list: readonly T[], item: T, key: (value: T) => K): readonly T[] {
  const id = key(item);
  const index = list.findIndex((existing) => key(existing) === id);
  if (index === -1) return [item, ...list];
  return list.map((existing, i) => (i === index ? item : existing));
}

export function activityReducer(state: ActivityState, action: ActivityAction): ActivityState {
  switch (action.type) {
    case 'loaded': {
      const { sales, inflows, alerts, counterAccounts } = action.activity;
      return { ...state, loaded: true, sales, inflows, alerts, counters: counterAccounts };
    }
    case 'load-failed':
      return { ...state, loaded: true, error: action.error };
    case 'sale':
      return { ...state, sales: upsertBy(state.sales, action.sale, (s) => s.id) };
    case 'inflow':
      return { ...state, inflows: upsertBy(state.inflows, action.inflow, (i) => i.sessionId) };
    case 'alert':
      return { ...state, alerts: upsertBy(state.alerts, action.alert, (a) => a.id) };
    case 'acknowledged':
      return {
        ...state,
        alerts: state.alerts.map((a) =>
          a.id === action.alertId ? { ...a, acknowledgedAt: action.at } : a,
        ),
      };
    case 'counter':
      return { ...state, counters: upsertBy(state.counters, action.counter, (c) => c.id) };
  }
}

export interface Activity extends ActivityState {
  /** Why the last acknowledgement failed. */
  readonly alertError: string | null;
  readonly acknowledge: (alert: AlertView) => Promise<void>;
  readonly counterCreated: (counter: CounterAccountView) => void;
}

/**
 * Today's sales, money in, alerts and counter accounts: read once when the screen opens, then
 * followed through main's events.
 */
export function useActivity(bridge: WindowApi, onAlertsChanged: () => Promise<void>): Activity {
  const [state, dispatch] = useReducer(activityReducer, NO_ACTIVITY);
  const [alertError, setAlertError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void bridge.getActivity({}).then((result) => {
      if (!live) return;
      dispatch(
        result.ok
          ? { type: 'loaded', activity: result.value }
          : { type: 'load-failed', error: cashierMessage(result.error) },
      );
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  useBridgeEvent('sale-changed', (sale) => dispatch({ type: 'sale', sale }));
  useBridgeEvent('inflow', (inflow) => dispatch({ type: 'inflow', inflow }));
  useBridgeEvent('alert', (alert) => dispatch({ type: 'alert', alert }));

  async function acknowledge(alert: AlertView): Promise<void> {
    setAlertError(null);
    const result = await bridge.acknowledgeAlert({ alertId: alert.id });
    if (!result.ok) {
      setAlertError(cashierMessage(result.error));
      return;
    }
    dispatch({ type: 'acknowledged', alertId: alert.id, at: Date.now() });
    await onAlertsChanged();
  }

  return {
    ...state,
    alertError,
    acknowledge,
    counterCreated: (counter) => dispatch({ type: 'counter', counter }),
  };
}
