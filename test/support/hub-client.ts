/**
 * A client of the hub's LAN listener as a paired counter is one: HTTPS to a self-signed
 * certificate, trusted only when its SHA-256 fingerprint is the pinned one. The TLS handshake is
 * finished and the fingerprint checked before a single byte of HTTP is sent.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type TLSSocket } from 'node:tls';
import { sseFrameBuffer, type SseStream } from './sse-stream';

export class PinMismatchError extends Error {
  readonly code = 'CERT_PIN_MISMATCH';
  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super(`the server's certificate is ${found}, not the pinned ${expected}`);
    this.name = 'PinMismatchError';
  }
}

/** "AB:CD:…" or "abcd…" → "abcd…" (64 hex digits). */
function normalise(fingerprint: string): string {
  return fingerprint.replaceAll(':', '').toLowerCase();
}

export interface HubRequestOptions {
  /** The certificate fingerprint to pin (as the pairing link's fp or the view's "AB:CD:…"). */
  readonly fingerprint: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON unless a string. */
  readonly body?: unknown;
  /** The local address to connect from (a counter of its own: 127.0.0.x on one machine). */
  readonly localAddress?: string;
}

export interface HubAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
}

/**
 * A TLS connection to `url`'s host whose certificate has the pinned fingerprint, from
 * `localAddress` when one is given.
 */
export function pinnedSocket(
  url: URL,
  fingerprint: string,
  localAddress?: string,
): Promise<TLSSocket> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    // The chain cannot be verified (self-signed): the pin below is the check.
    const socket = connect({
      host,
      port: Number(url.port || 443),
      rejectUnauthorized: false,
      ...(localAddress === undefined ? {} : { localAddress }),
    });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.off('error', reject);
      const found = socket.getPeerX509Certificate()?.fingerprint256 ?? 'none';
      if (normalise(found) !== normalise(fingerprint)) {
        socket.destroy();
        reject(new PinMismatchError(fingerprint, found));
        return;
      }
      resolve(socket);
    });
  });
}

function send(url: URL, options: HubRequestOptions, socket: TLSSocket): Promise<IncomingMessage> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        createConnection: () => socket,
      },
      resolve,
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** One request over a pinned connection; rejects with PinMismatchError for another certificate. */
export async function hubRequest(url: string, options: HubRequestOptions): Promise<HubAnswer> {
  const target = new URL(url);
  const socket = await pinnedSocket(target, options.fingerprint, options.localAddress);
  const response = await send(
    target,
    { ...options, headers: { connection: 'close', ...options.headers } },
    socket,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.statusCode ?? 0, headers: response.headers, text, json };
}

/** An event stream of the hub over a pinned connection, read frame by frame. */
export async function openHubStream(url: string, options: HubRequestOptions): Promise<SseStream> {
  const target = new URL(url);
  const socket = await pinnedSocket(target, options.fingerprint, options.localAddress);
  const response = await send(target, { ...options, method: 'GET' }, socket);
  const buffer = sseFrameBuffer();
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => buffer.push(chunk));
  response.once('end', () => buffer.finish());
  response.once('close', () => buffer.finish());
  response.once('error', () => buffer.finish());
  return buffer.stream(response.statusCode ?? 0, () => socket.destroy());
}
