/**
 * The webhook listener, movable to another port while the till runs: a port saved in Settings
 * applies at once. The new listener starts before the old one stops, so no callback finds the
 * till deaf; a port another program holds leaves the old listener where it was and says so.
 */
import type { WebhookListener } from '#main/webhook';
import { AppError } from '#shared/errors';

export class ListenerPortError extends AppError<'LISTENER_PORT_TAKEN'> {
  constructor(
    readonly port: number,
    cause: unknown,
  ) {
    super(
      'LISTENER_PORT_TAKEN',
      `Port ${port} cannot be used for the payment listener (${cause instanceof Error ? cause.message : String(cause)}): another program may hold it. Choose another port, or 0 for any free port.`,
    );
    this.name = 'ListenerPortError';
  }
}

export interface MovableListener extends WebhookListener {
  /** The port asked for (0: any free port), as Settings hold it. */
  readonly wanted: number;
  /**
   * Listens on `port` from now (0: keep the port in use, which is already a free one). Resolves
   * true when the listener moved; throws ListenerPortError (and stays put) when it cannot.
   */
  moveTo(port: number): Promise<boolean>;
}

export async function startMovableListener(
  start: (port: number) => Promise<WebhookListener>,
  port: number,
): Promise<MovableListener> {
  let current = await start(port);
  let wanted = port;
  let closed = false;
  return {
    get port() {
      return current.port;
    },
    get wanted() {
      return wanted;
    },
    callbackPath: () => current.callbackPath(),
    async moveTo(next) {
      if (closed) return false;
      if (next === 0 || next === current.port) {
        wanted = next;
        return false;
      }
      let moved: WebhookListener;
      try {
        moved = await start(next);
      } catch (error) {
        throw new ListenerPortError(next, error);
      }
      const previous = current;
      current = moved;
      wanted = next;
      await previous.close();
      return true;
    },
    async close() {
      closed = true;
      await current.close();
    },
  };
}
