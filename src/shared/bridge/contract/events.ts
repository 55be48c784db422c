import type { DisplayStateView } from '../../hub';
import type { AlertView, InflowView, SaleView } from '../../sales';
import type {
  CallbackHealthView,
  ProviderReachView,
  StoreSpaceView,
  SyncProgressView,
  SyncRunView,
  TunnelStatusView,
} from '../../views';

/** Events pushed from main to the renderer. */
export interface BridgeEvents {
  readonly 'sale-changed': SaleView;
  readonly inflow: InflowView;
  readonly alert: AlertView;
  readonly tunnel: TunnelStatusView;
  readonly 'sync-progress': SyncProgressView;
  readonly 'sync-finished': SyncRunView;
  /** The callback health changed (state, cause, a self-test started or finished). */
  readonly 'callback-health': CallbackHealthView;
  /** From the desktop app's menu: show this screen. */
  readonly navigate: { readonly route: 'sale' | 'activity' | 'report' | 'balance' | 'settings' };
  /** Only to a customer display's stream (its token calls nothing): what to show, at once. */
  readonly 'display-state': DisplayStateView;
  /** The store became full (new sales refused) or can write again. */
  readonly 'store-space': StoreSpaceView;
  /** The provider became unreachable from this till, or reachable again. */
  readonly 'provider-reach': ProviderReachView;
}
export type EventName = keyof BridgeEvents;
export type BridgeEvent = {
  [E in EventName]: { readonly type: E; readonly payload: BridgeEvents[E] };
}[EventName];
