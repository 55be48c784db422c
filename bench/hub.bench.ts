/**
 * The shop hub with 20 counters (issue 13): the browser shell started as a hub
 * (`npm run web -- --lan --lan-host 127.0.0.1`, the embedded sandbox provider), 20 counters
 * paired through real pairing links, each a client of its own over the HTTPS LAN listener (its
 * own keep-alive connection trusting exactly the hub's certificate, and its own event stream),
 * each selling every 10 s at a seeded random phase, every sale paid by a transfer at once so
 * that callbacks keep arriving. Two figures, p99 at the counters:
 *
 * - create → account on the counter: the createSale call's round trip (its answer carries the
 *   account number the counter shows);
 * - transfer → paid at the counter: from the customer's transfer (the sandbox's control API)
 *   to the counter's event stream saying the sale is paid (the callback path: the sandbox's
 *   callback, the hub's status check, the event over the LAN).
 *
 * Beside each, in the same run and measured the same way: a single till, the hub's own page
 * over the loopback listener (plain HTTP, the owner's token), selling alone, one sale every
 * 500 ms (a busier lone till than one sale per 10 s, so the baseline has as many samples).
 * Five rounds, each a 20 s window of each, in a seeded random order; each figure is the median
 * of the rounds' p99s. Target: within 3× of the single till.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startJsonChild, type JsonChild } from '#support/child-json';
import { openHubStream, pinnedSocket } from '#support/hub-client';
import { openSseStream, type SseStream } from '#support/sse-stream';
import { tokenOf, type WebShellLine } from '#support/web-till';
import { createSeededRandom } from '#main/sandbox/seeded-random';
import {
  REPETITIONS,
  percentile,
  summarise,
  type BenchContext,
  type BenchFigure,
} from './bench-figure';
import { describeOrders, interleave } from './interleave';

const COUNTERS = 20;
const COUNTER_PACE_MS = 10_000;
const SINGLE_PACE_MS = 500;
const WINDOW_MS = 20_000;
const SETTLE_MS = 30_000;
const RATIO_MAX = 3;
const root = fileURLToPath(new URL('..', import.meta.url));

interface HubLine extends WebShellLine {
  readonly lan_url: string;
  readonly pairing_url: string;
}

interface Sample {
  readonly createMs: number;
  readonly paidMs: number;
}

interface Answer {
  readonly status: number;
  readonly json: unknown;
}

type Agent = HttpAgent | HttpsAgent;

/**
 * A counter's keep-alive connections to the hub: the self-signed chain is not verified, the
 * certificate's fingerprint is (each new connection, at its handshake).
 */
function pinnedAgent(fingerprint: string): HttpsAgent {
  const agent = new HttpsAgent({
    keepAlive: true,
    rejectUnauthorized: false,
    maxSockets: 4,
    // A resumed TLS session shows no certificate to check: every connection shows it in full.
    maxCachedSessions: 0,
  });
  const pinned = fingerprint.replaceAll(':', '').toLowerCase();
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = create(options, callback) as TLSSocket;
    socket.once('secureConnect', () => {
      const found = socket.getPeerX509Certificate()?.fingerprint256.replaceAll(':', '');
      if (found?.toLowerCase() !== pinned)
        socket.destroy(new Error('hub bench: not the pinned hub'));
    });
    return socket;
  };
  return agent;
}

function postJson(
  agent: Agent,
  url: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  const target = new URL(url);
  const text = JSON.stringify(body);
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
    request.on('error', reject);
    request.end(text);
  });
}

function valueOf<T>(answer: Answer, what: string): T {
  const result = answer.json as { ok?: boolean; value?: T; error?: unknown };
  if (answer.status !== 200 || result.ok !== true || result.value === undefined) {
    throw new Error(`hub bench: ${what} answered ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  return result.value;
}

/** A page's view of the hub: its bridge calls and the paid sales its event stream told it of. */
interface Seller {
  readonly name: string;
  call<T>(channel: string, input: unknown): Promise<T>;
  /** Resolves with performance.now() when the stream says the sale is paid. */
  paid(saleId: number): Promise<number>;
  close(): void;
}

function seller(
  name: string,
  agent: Agent,
  base: string,
  token: string,
  stream: SseStream,
): Seller {
  const paidAt = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  let open = true;
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
      const answer = await postJson(agent, `${base}/api/call/${channel}`, input, {
        authorization: `Bearer ${token}`,
      });
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
    close() {
      open = false;
      stream.close();
    },
  };
}

/** One sale at a seller, paid at once through the sandbox: its two times. */
async function sellOnce(
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every counter sells every COUNTER_PACE_MS from its phase until the window closes. */
async function hubWindow(
  counters: readonly Seller[],
  phases: readonly number[],
  sell: (at: Seller) => Promise<Sample>,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const started = performance.now();
  await Promise.all(
    counters.map(async (counter, i) => {
      let next = phases[i] ?? 0;
      while (next < WINDOW_MS) {
        await sleep(Math.max(0, started + next - performance.now()));
        samples.push(await sell(counter));
        next += COUNTER_PACE_MS;
      }
    }),
  );
  return samples;
}

/** The lone till sells one sale every SINGLE_PACE_MS (or as soon as the last one is paid). */
async function singleWindow(
  till: Seller,
  sell: (at: Seller) => Promise<Sample>,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const started = performance.now();
  for (let next = 0; next < WINDOW_MS; next += SINGLE_PACE_MS) {
    await sleep(Math.max(0, started + next - performance.now()));
    samples.push(await sell(till));
  }
  return samples;
}

function p99(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 99);
}

function p50(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 50);
}

export async function run(bench: BenchContext): Promise<readonly BenchFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'till-bench-hub-'));
  let web: JsonChild<HubLine> | null = null;
  const sellers: Seller[] = [];
  const agents: Agent[] = [];
  try {
    web = await startJsonChild<HubLine>(
      'scripts/web.ts',
      [
        ...['--port', '0', '--data-dir', dataDir],
        ...['--lan', '--lan-host', '127.0.0.1', '--lan-port', '0'],
      ],
      { cwd: root, timeoutMs: 120_000 },
    );
    const { url, lan_url: lanUrl, pairing_url: pairingUrl, control_url: controlUrl } = web.first;
    const hubBase = new URL(url).origin;
    const lanBase = new URL(lanUrl).origin;
    const ownerToken = tokenOf(url);
    const params = new URLSearchParams(new URL(pairingUrl).hash.replace(/^#\/pair&?/, ''));
    const fingerprint = params.get('fp') ?? '';
    // The hub's certificate is the one its pairing link pins (each counter's agent checks again).
    (await pinnedSocket(new URL(lanUrl), fingerprint)).end();
    const loopback = new HttpAgent({ keepAlive: true });
    const controlAgent = new HttpAgent({ keepAlive: true, maxSockets: 8 });
    agents.push(loopback, controlAgent);

    const codes = [params.get('code') ?? ''];
    for (let i = 2; i <= COUNTERS; i++) {
      const link = valueOf<{ url: string }>(
        await postJson(
          loopback,
          `${hubBase}/api/call/createPairingLink`,
          { name: `Counter ${i}` },
          { authorization: `Bearer ${ownerToken}` },
        ),
        'createPairingLink',
      );
      codes.push(
        new URLSearchParams(new URL(link.url).hash.replace(/^#\/pair&?/, '')).get('code') ?? '',
      );
    }
    const counters: Seller[] = [];
    for (const [i, code] of codes.entries()) {
      const agent = pinnedAgent(fingerprint);
      agents.push(agent);
      const paired = valueOf<{ token: string }>(
        await postJson(agent, `${lanBase}/api/pair`, { code }),
        'pair',
      );
      const stream = await openHubStream(`${lanBase}/api/events`, {
        fingerprint,
        headers: { authorization: `Bearer ${paired.token}` },
      });
      counters.push(seller(`counter ${i + 1}`, agent, lanBase, paired.token, stream));
    }
    sellers.push(...counters);
    const single = seller(
      'single till',
      loopback,
      hubBase,
      ownerToken,
      await openSseStream(`${hubBase}/api/events`, { authorization: `Bearer ${ownerToken}` }),
    );
    sellers.push(single);

    let naira = 100;
    const sell = (at: Seller) => sellOnce(at, controlAgent, controlUrl, naira++);
    // Warm-up: every path once (TLS sessions, the first status checks, the JIT).
    await Promise.all([...counters, single].map((at) => sell(at)));

    const random = createSeededRandom(bench.seed);
    const { results, orders } = await interleave(
      {
        hub: () =>
          hubWindow(
            counters,
            counters.map(() => Math.floor(random.next() * COUNTER_PACE_MS)),
            sell,
          ),
        single: () => singleWindow(single, sell),
      },
      REPETITIONS,
      bench.seed,
    );
    const hubSamples = results.hub.flat();
    const singleSamples = results.single.flat();
    const figure = (
      name: string,
      pick: (sample: Sample) => number,
      baselineName: string,
    ): BenchFigure => {
      const value = summarise(results.hub.map((round) => p99(round.map(pick))));
      const baseline = summarise(results.single.map((round) => p99(round.map(pick))));
      return {
        name,
        unit: 'ms',
        value: value.median,
        spread: value.spread,
        baselineName,
        baseline: baseline.median,
        baselineSpread: baseline.spread,
        ratioTarget: { max: RATIO_MAX },
        note: `${REPETITIONS} rounds of a ${WINDOW_MS / 1000} s window each, order (seed ${bench.seed}): ${describeOrders(orders)}. Hub: ${COUNTERS} counters over HTTPS, one sale each per ${COUNTER_PACE_MS / 1000} s, ${hubSamples.length} sales, p50 ${p50(hubSamples.map(pick)).toFixed(1)} ms. Single till: ${singleSamples.length} sales, p50 ${p50(singleSamples.map(pick)).toFixed(1)} ms`,
      };
    };
    return [
      figure(
        `hub, ${COUNTERS} counters: create → account on the counter p99`,
        (sample) => sample.createMs,
        'single till alone: create → account p99',
      ),
      figure(
        `hub, ${COUNTERS} counters: transfer → paid at the counter p99`,
        (sample) => sample.paidMs,
        'single till alone: transfer → paid p99',
      ),
    ];
  } finally {
    for (const at of sellers) at.close();
    for (const agent of agents) agent.destroy();
    await web?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
