/**
 * A scripted HTTP server for client tests: a real node:http server on 127.0.0.1, port 0, that
 * records every request and answers however the test says, including badly (hang, cut the
 * connection, stream forever).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query as sent, e.g. '/virtual/status?reference=TT-1'. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type ScriptedHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  index: number,
) => void | Promise<void>;

export interface ScriptedServer {
  /** 'http://127.0.0.1:PORT' */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Responses whose connection closed before they ended (the client gave up). */
  readonly closedEarly: () => number;
  close(): Promise<void>;
}

export async function startScriptedServer(handler: ScriptedHandler): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let closedEarly = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const parsed = new URL(url, 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableEnded) closedEarly += 1;
      });
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closedEarly: () => closedEarly,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a body as JSON; a string is sent as is (for malformed bodies). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
