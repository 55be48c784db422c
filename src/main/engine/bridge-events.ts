import type { BridgeEvent } from '#shared/bridge/contract';
import type { Db } from '#main/store/database';
import type { EngineEvents } from './engine-types';
import { ownerAlertView, inflowView } from './row-views';

/** The engine's changes as the events pages hear: each row in the view pages show. */
export function bridgeEngineEvents(db: Db, emit: (event: BridgeEvent) => void): EngineEvents {
  return {
    saleChanged: (view) => emit({ type: 'sale-changed', payload: view }),
    inflowRecorded: (row) => emit({ type: 'inflow', payload: inflowView(row) }),
    alertChanged: (row) => emit({ type: 'alert', payload: ownerAlertView(db, row) }),
  };
}
