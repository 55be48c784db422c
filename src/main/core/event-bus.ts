import type { BridgeEvent } from '../../shared/bridge/contract';

export interface EventBus {
  emit(event: BridgeEvent): void;
  subscribe(listener: (event: BridgeEvent) => void): () => void;
}

/** A synchronous fan-out; one listener that throws does not stop the others. */
export function createEventBus(onListenerError: (error: unknown) => void): EventBus {
  const listeners = new Set<(event: BridgeEvent) => void>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
