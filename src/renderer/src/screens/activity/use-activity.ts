import { useEffect, useReducer } from 'react';
import type { ActivityView } from '#shared/bridge/contract';
import type { AlertView, InflowView, SaleView } from '#shared/sales';
import type { StandingAccountView } from '#shared/views';
import { useBridgeEvent } from '../../bridge-context';
import { failureOf, useBridgeCall } from '../../hooks/use-bridge-call';

/** Today's activity as main answered it, kept up to date by its events. */
export interface ActivityState {
  readonly loaded: boolean;
  readonly error: string | null;
  readonly sales: readonly SaleView[];
  readonly inflows: readonly InflowView[];
  readonly alerts: readonly AlertView[];
  readonly counters: readonly StandingAccountView[];
}

export type ActivityAction =
  | { readonly type: 'loaded'; readonly activity: ActivityView }
  | { readonly type: 'load-failed'; readonly error: string }
  | { readonly type: 'sale'; readonly sale: SaleView }
  | { readonly type: 'inflow'; readonly inflow: InflowView }
  | { readonly type: 'alert'; readonly alert: AlertView }
  | { readonly type: 'acknowledged'; readonly alertId: AlertView['id']; readonly at: number }
  | { readonly type: 'counter'; readonly counter: StandingAccountView };

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
      const { sales, inflows, alerts, standingAccounts } = action.activity;
      return { ...state, loaded: true, sales, inflows, alerts, counters: standingAccounts };
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
  /** "Check payment now": asks the provider about the alert's open sale at once. */
  readonly checkPayment: (saleId: number) => Promise<void>;
  /** Reads the sale as main has it and hands it to the sale screen. */
  readonly openSale: (saleId: number) => Promise<void>;
  /** The owner's one press: a "Needs a person" payment goes to the sale they chose. */
  readonly assign: (alert: AlertView, saleId: number) => Promise<void>;
  readonly counterCreated: (counter: StandingAccountView) => void;
}

/**
 * Today's sales, money in, alerts and standing accounts: read once when the screen opens, then
 * followed through main's events.
 */
export function useActivity(
  onAlertsChanged: () => Promise<void>,
  onOpenSale: (sale: SaleView) => void,
): Activity {
  const [state, dispatch] = useReducer(activityReducer, NO_ACTIVITY);
  const { run } = useBridgeCall<ActivityView>();
  const acknowledging = useBridgeCall<{ readonly acknowledged: boolean }>();
  const saleCall = useBridgeCall<SaleView>();

  useEffect(() => {
    void run((bridge) => bridge.getActivity({})).then((answer) => {
      if (!answer) return;
      dispatch(
        answer.ok
          ? { type: 'loaded', activity: answer.value }
          : { type: 'load-failed', error: failureOf(answer.error).words },
      );
    });
  }, [run]);

  useBridgeEvent('sale-changed', (sale) => dispatch({ type: 'sale', sale }));
  useBridgeEvent('inflow', (inflow) => dispatch({ type: 'inflow', inflow }));
  useBridgeEvent('alert', (alert) => dispatch({ type: 'alert', alert }));

  async function acknowledge(alert: AlertView): Promise<void> {
    const answer = await acknowledging.run((bridge) =>
      bridge.acknowledgeAlert({ alertId: alert.id }),
    );
    if (!answer?.ok) return;
    dispatch({ type: 'acknowledged', alertId: alert.id, at: Date.now() });
    await onAlertsChanged();
  }

  async function checkPayment(saleId: number): Promise<void> {
    const answer = await saleCall.run((bridge) => bridge.customerSaysPaid({ saleId }));
    // A sale it settled closes its alert in main, which sends the closed alert as an event.
    if (answer?.ok) dispatch({ type: 'sale', sale: answer.value });
  }

  async function assign(alert: AlertView, saleId: number): Promise<void> {
    const sessionId = alert.sessionId;
    if (sessionId === null) return;
    const answer = await saleCall.run((bridge) =>
      bridge.assignOutagePayment({ sessionId, saleId }),
    );
    if (!answer?.ok) return;
    // Main closes the alert and sends it as an event too; the list need not wait for it.
    dispatch({ type: 'sale', sale: answer.value });
    dispatch({ type: 'acknowledged', alertId: alert.id, at: Date.now() });
    await onAlertsChanged();
  }

  async function openSale(saleId: number): Promise<void> {
    const answer = await saleCall.run((bridge) => bridge.getSale({ saleId }));
    if (answer?.ok) onOpenSale(answer.value);
  }

  return {
    ...state,
    alertError: acknowledging.error ?? saleCall.error,
    acknowledge,
    checkPayment,
    openSale,
    assign,
    counterCreated: (counter) => dispatch({ type: 'counter', counter }),
  };
}

/** The owner's "Create standing account": any amount, or a fixed one. */
export function useNewStandingAccount(onCreated: (counter: StandingAccountView) => void) {
  const call = useBridgeCall<StandingAccountView>();
  async function create(
    input: { readonly type: 'static-flex' } | { readonly type: 'static'; readonly amount: string },
  ): Promise<void> {
    const answer = await call.run((bridge) => bridge.createStandingAccount(input));
    if (answer?.ok) onCreated(answer.value);
  }
  return { busy: call.busy, error: call.error, showError: call.showError, create };
}
