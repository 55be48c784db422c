/**
 * The till core in its own process, for the fault campaign's SIGKILL runs: a fake clock that
 * starts where the parent says, then one JSON request per stdin line (a bridge call, a clock
 * advance, settle, close) and one JSON reply per stdout line. The first line is {controlUrl}.
 */
import { createInterface } from 'node:readline';
import { dispatch } from '#main/bridge/dispatch';
import { createCore, type Core } from '#main/core/create-core';
import { ManualScheduler } from '#support/clock';
import {
  problemFromHandler,
  problemFromLogLine,
  TILL_VERSION,
  type ChildReply,
  type ChildRequest,
  type TillProblem,
} from './till';
import { PROVIDER_READ_RETRY } from './script';
import { IN_PROCESS_OWNER } from '#main/auth/caller';

const [dataDir, startText, timeoutText] = process.argv.slice(2);
if (!dataDir || !startText || !timeoutText) {
  throw new Error('usage: till-child.ts <dataDir> <startMs> <providerTimeoutMs>');
}

let problems: TillProblem[] = [];
const scheduler = new ManualScheduler(Number(startText));
const core: Core = await createCore({
  dataDir,
  shell: 'browser',
  version: TILL_VERSION,
  scheduler,
  providerTimeoutMs: Number(timeoutText),
  providerReadRetry: PROVIDER_READ_RETRY,
  logLevel: process.env['TILL_FAULT_LOG'] ?? 'warn',
  logMirror: {
    write(line: string) {
      const problem = problemFromLogLine(line, scheduler.now());
      if (problem) problems.push(problem);
    },
  },
});
process.stdout.write(`${JSON.stringify({ controlUrl: core.sandboxControlUrl() })}\n`);

async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setImmediate(r));
    await core.idle();
  }
}

async function handle(request: ChildRequest): Promise<unknown> {
  switch (request.op) {
    case 'call':
      return dispatch(
        core.handlers,
        request.channel,
        request.input,
        (error) => {
          problems.push(problemFromHandler(request.channel, error, scheduler.now()));
        },
        IN_PROCESS_OWNER,
      );
    case 'advance':
      await scheduler.advance(request.ms, settle);
      return scheduler.now();
    case 'settle':
      await settle();
      return null;
    case 'close':
      await core.close();
      return null;
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line) as ChildRequest;
  void handle(request)
    .then(
      (result): ChildReply => ({ id: request.id, result, problems }),
      (error: unknown): ChildReply => ({ id: request.id, error: String(error), problems }),
    )
    .then((reply) => {
      problems = [];
      process.stdout.write(`${JSON.stringify(reply)}\n`, () => {
        if (request.op === 'close') process.exit(0);
      });
    });
});
// The parent went away without killing us: do not linger with open ports.
lines.on('close', () => {
  void core.close().finally(() => process.exit(1));
});
