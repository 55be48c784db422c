/**
 * The till under test, driven the same way whether it runs in this process or in a child
 * process that the campaign can SIGKILL: bridge calls through the real dispatch, and a fake
 * clock (ManualScheduler, shared by the engine and the embedded sandbox) moved by the campaign.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { ManualScheduler } from '#support/clock';
import type {
  BridgeResult,
  ChannelInput,
  ChannelName,
  ChannelOutput,
} from '#shared/bridge/contract';
import { PROVIDER_READ_RETRY, PROVIDER_TIMEOUT_MS } from './script';
import { IN_PROCESS_OWNER } from '#main/auth/caller';

export const TILL_VERSION = '0.0.0-faults';

export interface Till {
  readonly kind: 'in-process' | 'child';
  /** The embedded sandbox's control API (its port changes at every start). */
  controlUrl(): string;
  now(): number;
  call<C extends ChannelName>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<BridgeResult<ChannelOutput<C>>>;
  /** Moves the fake clock, running due timers in order and settling the work each starts. */
  advance(ms: number): Promise<void>;
  /** Waits for the engine's in-flight work (status checks, confirmations) to finish. */
  settle(): Promise<void>;
  /** close() and a new core on the same data directory and clock. */
  restart(): Promise<void>;
  close(): Promise<void>;
  /** Handler errors that were not coded errors, error-level log lines, sandbox errors. */
  readonly problems: TillProblem[];
}

/**
 * Something the till reported that may be a bug: a bridge handler that threw an error without
 * a code, an error-level log line, or the embedded sandbox's own error (a warning line). The
 * campaign decides which are planned (see campaign.ts); `at` is the fake clock when it came.
 */
export interface TillProblem {
  readonly source: 'handler' | 'log';
  /** The log line's message, or the channel and the error. */
  readonly message: string;
  readonly at: number;
  /** The start of the raw line or error, for the report. */
  readonly detail: string;
}

/** The sandbox's unexpected errors are logged as warnings by the runtime: they count too. */
const SANDBOX_ERROR_MESSAGE = 'sandbox provider error';

/** A log line as a problem, or null when it is neither error-level nor a sandbox error. */
export function problemFromLogLine(line: string, at: number): TillProblem | null {
  let parsed: { level?: unknown; msg?: unknown };
  try {
    parsed = JSON.parse(line) as { level?: unknown; msg?: unknown };
  } catch {
    return { source: 'log', message: 'unreadable log line', at, detail: line.slice(0, 400) };
  }
  const level = typeof parsed.level === 'number' ? parsed.level : 0;
  const message = typeof parsed.msg === 'string' ? parsed.msg : '';
  // pino levels: 40 warn, 50 error, 60 fatal.
  if (level < 50 && message !== SANDBOX_ERROR_MESSAGE) return null;
  return { source: 'log', message, at, detail: line.trim().slice(0, 400) };
}

export function problemFromHandler(channel: string, error: unknown, at: number): TillProblem {
  return {
    source: 'handler',
    message: `handler ${channel} threw`,
    at,
    detail: (error instanceof Error ? (error.stack ?? error.message) : String(error)).slice(0, 400),
  };
}

/** Lets callbacks already on the wire land, then waits for the engine. */
async function settleCore(core: Core): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setImmediate(r));
    await core.idle();
  }
}

export async function openInProcessTill(dataDir: string, startMs: number): Promise<Till> {
  const problems: TillProblem[] = [];
  let scheduler = new ManualScheduler(startMs);
  const open = () =>
    createCore({
      dataDir,
      shell: 'browser',
      version: TILL_VERSION,
      scheduler,
      providerTimeoutMs: PROVIDER_TIMEOUT_MS,
      providerReadRetry: PROVIDER_READ_RETRY,
      logLevel: 'warn',
      logMirror: {
        write(line: string) {
          const problem = problemFromLogLine(line, scheduler.now());
          if (problem) problems.push(problem);
        },
      },
    });
  let core = await open();
  return {
    kind: 'in-process',
    problems,
    controlUrl: () => core.sandboxControlUrl() ?? '',
    now: () => scheduler.now(),
    call: async <C extends ChannelName>(channel: C, input: ChannelInput<C>) =>
      (await dispatch(
        core.handlers,
        channel,
        input,
        (error) => {
          problems.push(problemFromHandler(channel, error, scheduler.now()));
        },
        IN_PROCESS_OWNER,
      )) as BridgeResult<ChannelOutput<C>>,
    advance: (ms) => scheduler.advance(ms, () => settleCore(core)),
    settle: () => settleCore(core),
    async restart() {
      await core.close();
      scheduler = new ManualScheduler(scheduler.now());
      core = await open();
    },
    close: () => core.close(),
  };
}

// -------------------------------------------------------------------------------------------
// The child-process till (test/faults/till-child.ts): one JSON request per stdin line, one JSON
// reply per stdout line. The first stdout line is {controlUrl}.

type ChildOp =
  | { readonly op: 'call'; readonly channel: string; readonly input: unknown }
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'settle' }
  | { readonly op: 'close' };

export type ChildRequest = ChildOp & { readonly id: number };
export type { ChildOp };

export interface ChildReply {
  readonly id: number;
  readonly result?: unknown;
  readonly problems?: readonly TillProblem[];
  readonly error?: string;
}

export interface ChildTill extends Till {
  /** SIGKILL after `delayMs` of real time; requests in flight are rejected. */
  kill(delayMs: number): Promise<void>;
  /** A new child on the same data directory, its clock where the killed one may have got to. */
  revive(): Promise<void>;
  alive(): boolean;
}

const ROOT = resolve(import.meta.dirname, '..', '..');
const CHILD_SCRIPT = 'test/faults/till-child.ts';

class KilledError extends Error {
  constructor() {
    super('the till process was killed');
    this.name = 'KilledError';
  }
}

interface Running {
  readonly child: ChildProcess;
  readonly controlUrl: string;
  readonly exited: Promise<void>;
  readonly waiting: Map<number, { ok: (value: unknown) => void; fail: (e: Error) => void }>;
  stderr(): string;
}

async function spawnChild(dataDir: string, startMs: number): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD_SCRIPT, dataDir, String(startMs), String(PROVIDER_TIMEOUT_MS)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const waiting: Running['waiting'] = new Map();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Writing to a child that was just killed fails with EPIPE: the request is failed by 'exit'.
  child.stdin?.on('error', () => undefined);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout });
  const controlUrl = await new Promise<string>((ready, failed) => {
    const timer = setTimeout(
      () => failed(new Error(`till child did not start\n${stderr}`)),
      60_000,
    );
    void exited.then(() => failed(new Error(`till child exited before its first line\n${stderr}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      ready((JSON.parse(line) as { controlUrl: string }).controlUrl);
    });
  });
  lines.on('line', (line) => {
    const reply = JSON.parse(line) as ChildReply;
    const waiter = waiting.get(reply.id);
    if (!waiter) return;
    waiting.delete(reply.id);
    if (reply.error !== undefined) waiter.fail(new Error(reply.error));
    else waiter.ok({ result: reply.result, problems: reply.problems ?? [] });
  });
  const running: Running = { child, controlUrl, exited, waiting, stderr: () => stderr };
  void exited.then(() => {
    for (const waiter of waiting.values()) waiter.fail(new KilledError());
    waiting.clear();
  });
  return running;
}

export async function openChildTill(dataDir: string, startMs: number): Promise<ChildTill> {
  const problems: TillProblem[] = [];
  // The furthest the child's clock may have got: where a new child starts after a kill.
  let clock = startMs;
  let running: Running | null = await spawnChild(dataDir, clock);
  let nextId = 1;

  async function request(body: ChildOp): Promise<unknown> {
    const target = running;
    if (!target) throw new KilledError();
    const id = nextId++;
    const reply = await new Promise<unknown>((ok, fail) => {
      target.waiting.set(id, { ok, fail });
      target.child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
    });
    const { result, problems: found } = reply as { result: unknown; problems: TillProblem[] };
    problems.push(...found);
    return result;
  }

  async function stop(): Promise<void> {
    const target = running;
    if (!target) return;
    try {
      await request({ op: 'close' });
    } finally {
      running = null;
      await target.exited;
    }
  }

  return {
    kind: 'child',
    problems,
    controlUrl: () => running?.controlUrl ?? '',
    now: () => clock,
    alive: () => running !== null,
    async call<C extends ChannelName>(channel: C, input: ChannelInput<C>) {
      return (await request({ op: 'call', channel, input })) as BridgeResult<ChannelOutput<C>>;
    },
    async advance(ms) {
      clock += ms;
      await request({ op: 'advance', ms });
    },
    async settle() {
      await request({ op: 'settle' });
    },
    async restart() {
      await stop();
      running = await spawnChild(dataDir, clock);
    },
    async kill(delayMs) {
      const target = running;
      if (!target) return;
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      target.child.kill('SIGKILL');
      await target.exited;
      running = null;
    },
    async revive() {
      if (!running) running = await spawnChild(dataDir, clock);
    },
    close: stop,
  };
}
