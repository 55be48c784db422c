/**
 * The till core in its own process, for the fault campaign's SIGKILL runs: a fake clock that
 * starts where the parent says, then one JSON request per stdin line (a bridge call, a clock
 * advance, settle, close) and one JSON reply per stdout line. The first line is {controlUrl}.
 */
import { createInterface } from 'node:readline';
import { dispatch } from '../../src/main/bridge/dispatch';
import { createCore, type Core } from '../../src/main/core/create-core';
import { ManualScheduler } from '../../src/main/engine/scheduler';
import type { ChildReply, ChildRequest } from './till';

const [dataDir, startText] = process.argv.slice(2);
if (!dataDir || !startText) throw new Error('usage: till-child.ts <dataDir> <startMs>');

let problems: string[] = [];
const scheduler = new ManualScheduler(Number(startText));
const core: Core = await createCore({
  dataDir,
  shell: 'browser',
  version: '0.0.0-faults',
  scheduler,
  logLevel: 'warn',
  logMirror: {
    write(line: string) {
      if (/"level":(50|60)/.test(line)) problems.push(`log: ${line.trim().slice(0, 400)}`);
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
      return dispatch(core.handlers, request.channel, request.input, (error) => {
        problems.push(`handler ${request.channel} threw: ${String(error)}`);
      });
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
