import { accessOf, isChannelName, type Caller } from '#shared/bridge/contract';
import { eventVisibleTo } from '#main/auth/event-visibility';
import type { Roles } from '#main/auth/roles';
import { pairedCounterOf } from '#main/auth/caller';
import type { CoreHub } from '#main/hub/hub';
import { ownershipLookup } from '#main/auth/ownership-lookup';
import type { CoreAuth } from './core-types';
import type { Runtime } from './runtime';

/** Who calls, and who hears an event: the roles' answer, with a paired counter as it is now. */
export function coreAuth(deps: {
  readonly roles: Roles;
  readonly hub: CoreHub;
  readonly runtime: () => Runtime | null;
}): CoreAuth {
  const { roles, hub, runtime } = deps;

  /**
   * A counter's event stream hears as the counter is now (a new till id applies at once), and
   * hears nothing once it is revoked, even before the shell has ended the stream.
   */
  function listenerNow(caller: Caller): Caller | null {
    const counter = pairedCounterOf(caller);
    if (!counter) return caller;
    const current = runtime() ? hub.current(counter.id) : null;
    return current ? { ...caller, counter: current } : null;
  }

  return {
    callerFor: (request, channel) =>
      roles.callerFor(request, isChannelName(channel) ? accessOf(channel) : 'open'),
    viewerFor: (request) => roles.viewerFor(request),
    eventVisibleTo: (event, caller) => {
      const viewer = listenerNow(caller);
      return (
        viewer !== null &&
        eventVisibleTo(event, viewer, (saleId) => {
          const current = runtime();
          return current ? (ownershipLookup(() => current.db).sale(saleId) ?? null) : null;
        })
      );
    },
    forget: (sessionId) => roles.forget(sessionId),
  };
}
