/**
 * The webhook bench's client: a worker thread per server (the provider is another machine; on a
 * 2-core box the client and the server use both cores) that keeps its keep-alive connections
 * between runs, so a round can send its callbacks in slices, the servers taking turns, without a
 * new thread or new connections per slice.
 */
import { Worker } from 'node:worker_threads';
import { percentile } from './bench-figure';

export interface ClientResult {
  readonly elapsedMs: number;
  readonly ok: number;
  readonly failed: number;
  readonly latencies: Float64Array;
}

export interface ClientRun {
  readonly total: number;
  readonly concurrency: number;
  /** 20 digits: each callback's session id is this and its 10-digit number. */
  readonly runId: string;
  /** The number of the run's first callback (a round's slices share one runId). */
  readonly first?: number;
}

export interface BenchClient {
  run(run: ClientRun): Promise<ClientResult>;
  close(): Promise<void>;
}

/** Plain JavaScript so the worker needs no TypeScript loader. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, path, maxSockets } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets });
function one(i, runId, latencies, counts) {
  const body = JSON.stringify({
    event: 'payment.success',
    reference: 'bench-' + i,
    external_reference: 'bench-' + i,
    account_number: '9912345678',
    session_id: runId + String(i).padStart(10, '0'),
    amount: 1500.5,
    status: 'success',
  });
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies[counts.done++] = Number(process.hrtime.bigint() - started) / 1e6;
          if (res.statusCode === 200) counts.ok += 1; else counts.failed += 1;
          resolve();
        });
      });
    req.on('error', () => {
      latencies[counts.done++] = Number(process.hrtime.bigint() - started) / 1e6;
      counts.failed += 1;
      resolve();
    });
    req.end(body);
  });
}
parentPort.on('message', async (message) => {
  if (message.close) { agent.destroy(); parentPort.close(); return; }
  const { total, concurrency, runId, first } = message;
  const latencies = new Float64Array(total);
  const counts = { done: 0, ok: 0, failed: 0 };
  let next = 0;
  async function loop() { for (;;) { const i = next++; if (i >= total) return; await one(first + i, runId, latencies, counts); } }
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  parentPort.postMessage({ elapsedMs, ok: counts.ok, failed: counts.failed, latencies }, [latencies.buffer]);
});
`;

export function startClient(port: number, path: string, maxSockets: number): BenchClient {
  const worker = new Worker(CLIENT, { eval: true, workerData: { port, path, maxSockets } });
  let failure: Error | null = null;
  worker.on('error', (error) => {
    failure = error;
  });
  return {
    run(run) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        worker.once('error', onError);
        worker.once('message', (result: ClientResult) => {
          worker.off('error', onError);
          resolve(result);
        });
        worker.postMessage({ first: 0, ...run });
      });
    },
    async close() {
      worker.postMessage({ close: true });
      await worker.terminate();
    },
  };
}

export interface ClientFigures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly ok: number;
}

/**
 * Figures of one or more runs against one server taken together: the rate over the time the
 * runs took, the percentiles over all their answers.
 */
export function clientFigures(results: readonly ClientResult[]): ClientFigures {
  const total = results.reduce((sum, result) => sum + result.latencies.length, 0);
  const all = new Float64Array(total);
  let at = 0;
  for (const result of results) {
    all.set(result.latencies, at);
    at += result.latencies.length;
  }
  const sorted = all.sort();
  const elapsedMs = results.reduce((sum, result) => sum + result.elapsedMs, 0);
  return {
    perSecond: (total / elapsedMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ok: results.reduce((sum, result) => sum + result.ok, 0),
  };
}
