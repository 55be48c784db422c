/** How the page stands with the till service, as the banner and the screens read it. */

/**
 * 'connecting': the first try of this page. 'online': main answered the stream. 'offline': main
 * was lost, tries go on with backoff. 'refused': main refused this page's token (rotated, or a
 * counter the owner removed): no more tries until the page has a new one.
 */
export type ConnectionState = 'connecting' | 'online' | 'offline' | 'refused';

export interface ConnectionView {
  readonly state: ConnectionState;
  /** When main was lost (offline), or null. */
  readonly lostAt: number | null;
  /** Tries that failed since then (the next wait grows with it). */
  readonly attempts: number;
  /** When the next try starts (offline), or null. */
  readonly retryAt: number | null;
  /** How many times main came back after being lost. */
  readonly recoveries: number;
  /** The code main refused the token with ('UNAUTHORISED', 'COUNTER_REVOKED'), when refused. */
  readonly refusedWith: string | null;
  /**
   * The till service's clock minus this device's, measured when the stream opens and with every
   * event and heartbeat after; null until first measured. Countdowns count against the service's time.
   */
  readonly clockOffsetMs: number | null;
}

export const INITIAL_VIEW: ConnectionView = {
  state: 'connecting',
  lostAt: null,
  attempts: 0,
  retryAt: null,
  recoveries: 0,
  refusedWith: null,
  clockOffsetMs: null,
};

export interface ViewStore {
  get(): ConnectionView;
  /** Changes the view and tells every listener. */
  set(change: Partial<ConnectionView>): void;
  subscribe(listener: (view: ConnectionView) => void): () => void;
}

export function createViewStore(): ViewStore {
  const listeners = new Set<(view: ConnectionView) => void>();
  let view = INITIAL_VIEW;
  return {
    get: () => view,
    set(change) {
      view = { ...view, ...change };
      for (const listener of listeners) listener(view);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
