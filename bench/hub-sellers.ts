/**
 * The hub bench's clients: a page's view of the hub (its bridge calls over its own keep-alive
 * connections and the paid sales its event stream tells it of), and one sale paid at once
 * through the sandbox's control API, with its two times.
 */
import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { SseStream } from '#support/sse-stream';

/** How long a seller waits to hear that a sale it sold is paid. */
const SETTLE_MS = 30_000;

export interface Sample {
  readonly createMs: number;
  readonly paidMs: number;
}

export interface Answer {
  readonly status: number;
  readonly json: unknown;
}

export type Agent = HttpAgent | HttpsAgent;

/**
 * A counter's keep-alive connections to the hub, from its own local address: the self-signed
 * chain is not verified, the certificate's fingerprint is (each new connection, at its
 * handshake), and so is the address the connection really comes from (the hub's cap counts
 * connections by it).
 */
export function pinnedAgent(fingerprint: string, localAddress: string): HttpsAgent {
  const agent = new HttpsAgent({
    keepAlive: true,
    rejectUnauthorized: false,
    maxSockets: 4,
    // A resumed TLS session shows no certificate to check: every connection shows it in full.
    maxCachedSessions: 0,
    localAddress,
  });
  const pinned = fingerprint.replaceAll(':', '').toLowerCase();
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = create(options, callback) as TLSSocket;
    socket.once('secureConnect', () => {
      const found = socket.getPeerX509Certificate()?.fingerprint256.replaceAll(':', '');
      if (found?.toLowerCase() !== pinned) {
        socket.destroy(new Error('hub bench: not the pinned hub'));
      } else if (socket.localAddress !== localAddress) {
        socket.destroy(new Error(`hub bench: connected from ${socket.localAddress}`));
      }
    });
    return socket;
  };
  return agent;
}

/**
 * The hub ended a kept-alive connection (its idle timeout) just as a request went out on it: the
 * race every keep-alive client has, which Node's docs answer with one retry, as a browser does.
 */
class StaleConnectionError extends Error {
  readonly code = 'STALE_CONNECTION';
  constructor(cause: Error) {
    super(`a reused connection was reset: ${cause.message}`, { cause });
    this.name = 'StaleConnectionError';
  }
}

function sendJson(
  agent: Agent,
  target: URL,
  text: string,
  headers: Readonly<Record<string, string>>,
): Promise<Answer> {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, json: JSON.parse(raw) as unknown });
          } catch {
            reject(new Error(`POST ${target.pathname} answered ${response.statusCode}: ${raw}`));
          }
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && error.code === 'ECONNRESET';
      reject(stale ? new StaleConnectionError(error) : error);
    });
    request.end(text);
  });
}

/**
 * POSTs `body` as JSON; sent once more (and `onResend` told) when the connection it went out on
 * was a kept-alive one that the server had just closed.
 */
export async function postJson(
  agent: Agent,
  url: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  onResend?: () => void,
): Promise<Answer> {
  const target = new URL(url);
  const text = JSON.stringify(body);
  try {
    return await sendJson(agent, target, text, headers);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    onResend?.();
    return sendJson(agent, target, text, headers);
  }
}

export function valueOf<T>(answer: Answer, what: string): T {
  const result = answer.json as { ok?: boolean; value?: T; error?: unknown };
  if (answer.status !== 200 || result.ok !== true || result.value === undefined) {
    throw new Error(`hub bench: ${what} answered ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  return result.value;
}

/** A page's view of the hub: its bridge calls and the paid sales its event stream told it of. */
export interface Seller {
  readonly name: string;
  call<T>(channel: string, input: unknown): Promise<T>;
  /** Resolves with performance.now() when the stream says the sale is paid. */
  paid(saleId: number): Promise<number>;
  /** Calls sent again after the hub had closed the kept-alive connection under them. */
  resent(): number;
  close(): void;
}

export function seller(
  name: string,
  agent: Agent,
  base: string,
  token: string,
  stream: SseStream,
): Seller {
  const paidAt = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  let open = true;
  let resent = 0;
  void (async () => {
    while (open) {
      let frame;
      try {
        frame = await stream.next(3_600_000);
      } catch {
        return;
      }
      const at = performance.now();
      let event: { type?: string; payload?: { id?: number; state?: string } };
      try {
        event = JSON.parse(frame.data) as typeof event;
      } catch {
        continue; // the ready frame and pings are not events
      }
      const id = event.payload?.id;
      if (event.type !== 'sale-changed' || event.payload?.state !== 'paid' || id === undefined) {
        continue;
      }
      paidAt.set(id, at);
      waiting.get(id)?.(at);
      waiting.delete(id);
    }
  })();
  return {
    name,
    async call<T>(channel: string, input: unknown) {
      let answer;
      try {
        answer = await postJson(
          agent,
          `${base}/api/call/${channel}`,
          input,
          { authorization: `Bearer ${token}` },
          () => (resent += 1),
        );
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(`hub bench: ${name} ${channel} failed: ${why}`, { cause: error });
      }
      return valueOf<T>(answer, `${name} ${channel}`);
    },
    paid(saleId) {
      const known = paidAt.get(saleId);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`hub bench: ${name} never heard sale ${saleId} paid`)),
          SETTLE_MS,
        );
        waiting.set(saleId, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    resent: () => resent,
    close() {
      open = false;
      stream.close();
    },
  };
}

/** One sale at a seller, paid at once through the sandbox: its two times. */
export async function sellOnce(
  at: Seller,
  controlAgent: HttpAgent,
  controlUrl: string,
  naira: number,
): Promise<Sample> {
  const started = performance.now();
  const sale = await at.call<{ id: number; accountNumber: string | null }>('createSale', {
    amount: String(naira),
  });
  const shown = performance.now();
  if (!sale.accountNumber) throw new Error(`hub bench: ${at.name}'s sale has no account`);
  const paid = at.paid(sale.id);
  const transferred = performance.now();
  const answer = await postJson(controlAgent, `${controlUrl}/transfers`, {
    account_number: sale.accountNumber,
    amount: naira,
  });
  if (answer.status >= 300) throw new Error(`hub bench: transfer answered ${answer.status}`);
  return { createMs: shown - started, paidMs: (await paid) - transferred };
}
