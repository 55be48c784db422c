import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channels, type Caller } from '#shared/bridge/contract';
import { createAppLogger, type AppLogger } from '#main/logging/logger';
import { NO_SHELL_PARTS, RENDERER_REPORTS_PER_MINUTE, shellHandlers } from './shell-handlers';

const SECRET = 'sk_test_4f3e2d1c0b9a8877';
const cashier: Caller = { role: 'cashier', name: 'Ade', sessionId: 's1', via: 'browser' };

let dataDir: string | null = null;
let log: AppLogger | null = null;

function setUp(now: () => number) {
  dataDir = mkdtempSync(join(tmpdir(), 'till-renderer-report-'));
  log = createAppLogger({ dataDir });
  log.redactor.addSecret(SECRET);
  return { handlers: shellHandlers({ logger: log.logger, now })(NO_SHELL_PARTS), log };
}

function lines(app: AppLogger): Record<string, unknown>[] {
  return readFileSync(app.path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => {
  log?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
  log = null;
});

describe('reportRendererError', () => {
  it('logs the screen, the error and the component stack, with secrets scrubbed', async () => {
    const { handlers, log: app } = setUp(() => 0);
    expect(
      await handlers.reportRendererError(
        {
          screen: 'activity',
          message: `Cannot read properties of null (reading 'length') near ${SECRET}`,
          stack: 'TypeError: at ActivityScreen (index.js:1:2)',
          componentStack: '\n    at ActivityScreen\n    at Shell',
        },
        cashier,
      ),
    ).toEqual({ logged: true });
    const [line] = lines(app);
    expect(line).toMatchObject({
      level: 50,
      msg: 'renderer error',
      screen: 'activity',
      componentStack: '\n    at ActivityScreen\n    at Shell',
      via: 'browser',
      role: 'cashier',
    });
    expect(String(line?.['error'])).toContain("Cannot read properties of null (reading 'length')");
    expect(readFileSync(app.path, 'utf8')).not.toContain(SECRET);
  });

  it('keeps at most a bounded number of reports a minute, and says how many it dropped', async () => {
    let now = 0;
    const { handlers, log: app } = setUp(() => now);
    const report = { screen: 'sale', message: 'boom' };
    const answers: boolean[] = [];
    for (let n = 0; n < RENDERER_REPORTS_PER_MINUTE + 5; n += 1) {
      answers.push((await handlers.reportRendererError(report, cashier)).logged);
    }
    expect(answers.filter(Boolean)).toHaveLength(RENDERER_REPORTS_PER_MINUTE);
    expect(answers.slice(-5)).toEqual([false, false, false, false, false]);
    now = 60_000;
    expect(await handlers.reportRendererError(report, cashier)).toEqual({ logged: true });
    const logged = lines(app);
    expect(logged.filter((line) => line['msg'] === 'renderer error')).toHaveLength(
      RENDERER_REPORTS_PER_MINUTE + 1,
    );
    expect(logged.find((line) => line['dropped'] !== undefined)).toMatchObject({ dropped: 5 });
  });

  it('takes only bounded input (the channel schema)', () => {
    const schema = channels.reportRendererError.input;
    expect(schema.safeParse({ screen: 'sale', message: 'x'.repeat(1000) }).success).toBe(true);
    expect(schema.safeParse({ screen: 'sale', message: 'x'.repeat(1001) }).success).toBe(false);
    expect(
      schema.safeParse({ screen: 'sale', message: 'x', componentStack: 'y'.repeat(4001) }).success,
    ).toBe(false);
    expect(schema.safeParse({ screen: '', message: 'x' }).success).toBe(false);
    expect(schema.safeParse({ screen: 'sale', message: 'x', extra: 1 }).success).toBe(false);
    expect(channels.reportRendererError.access).toBe('open');
  });
});

describe('rotateShellToken outside the browser shell', () => {
  it('says it does not apply, with a code', () => {
    const { handlers } = setUp(() => 0);
    expect(() =>
      handlers.rotateShellToken({}, { ...cashier, role: 'owner', via: 'desktop' }),
    ).toThrow(expect.objectContaining({ code: 'NOT_AVAILABLE' }));
    expect(channels.rotateShellToken.access).toBe('owner');
  });
});
