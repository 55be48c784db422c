/**
 * One HTTP request sent as written: fetch sets Host from the URL and normalises the path, so a
 * test of a listener's Host rule (DNS rebinding) or of its path handling sends it with this.
 */
import { request } from 'node:http';

export interface RawHttpRequest {
  /** On 127.0.0.1. */
  readonly port: number;
  /** Sent as given (`/../x` stays `/../x`). */
  readonly path: string;
  readonly method?: string;
  /** A `host` here replaces the one made from the address. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface RawHttpAnswer {
  readonly status: number;
  readonly text: string;
}

export function rawHttp(sent: RawHttpRequest): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: sent.port,
        path: sent.path,
        method: sent.method ?? 'GET',
        headers: sent.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}
