// The ngrok network cannot be reached from these machines (no internet, outside traffic is
// watched), so the manager is tested behind its TunnelDriver interface with a FAKE driver.
// The real SDK adapter has its own test in ngrok-driver.test.ts, against local ports only.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createTunnelManager, type ScheduleFn } from './tunnel-manager';
import {
  TunnelError,
  type TunnelConnectOptions,
  type TunnelDriver,
  type TunnelEvent,
  type TunnelSession,
} from './types';

const AUTHTOKEN = '2abcDEFghiJKLmnoPQRstu_3vwxYZ0123456789abcd';
const PASSWORD = 'basic-auth-pa55word';
const OPTIONS: TunnelConnectOptions = {
  localPort: 4567,
  authtoken: AUTHTOKEN,
  domain: 'mama-put.ngrok.app',
  basicAuth: { username: 'till', password: PASSWORD },
};

class FakeSession implements TunnelSession {
  closed = false;
  private readonly listeners: ((error?: TunnelError) => void)[] = [];
  constructor(readonly url: string) {}
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
  onClosed(listener: (error?: TunnelError) => void): void {
    this.listeners.push(listener);
  }
  /** The network took the session away. */
  drop(error?: TunnelError): void {
    for (const listener of this.listeners) listener(error);
  }
}

type Outcome = { readonly url: string } | { readonly error: Error } | 'hang';

/** Answers each connect() with the next planned outcome. */
class FakeDriver implements TunnelDriver {
  readonly calls: TunnelConnectOptions[] = [];
  readonly sessions: FakeSession[] = [];
  private readonly plan: Outcome[];
  private hung: ((session: FakeSession) => void) | null = null;
  constructor(...plan: Outcome[]) {
    this.plan = plan;
  }
  connect(options: TunnelConnectOptions): Promise<TunnelSession> {
    this.calls.push(options);
    const outcome = this.plan.shift();
    if (outcome === undefined) return Promise.reject(new Error('no more planned outcomes'));
    if (outcome === 'hang') {
      return new Promise((resolve) => {
        this.hung = resolve;
      });
    }
    if ('error' in outcome) return Promise.reject(outcome.error);
    const session = new FakeSession(outcome.url);
    this.sessions.push(session);
    return Promise.resolve(session);
  }
  /** Completes a connect that was left hanging. */
  release(url: string): FakeSession {
    const session = new FakeSession(url);
    this.sessions.push(session);
    this.hung?.(session);
    return session;
  }
}

/** Timers under the test's control: nothing waits for real time. */
function manualSchedule(): { schedule: ScheduleFn; pending: { ms: number; run: () => void }[] } {
  const pending: { ms: number; run: () => void }[] = [];
  const schedule: ScheduleFn = (callback, ms) => {
    const entry = { ms, run: callback };
    pending.push(entry);
    return () => {
      const index = pending.indexOf(entry);
      if (index >= 0) pending.splice(index, 1);
    };
  };
  return { schedule, pending };
}

function setup(driver: FakeDriver) {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  const timers = manualSchedule();
  const manager = createTunnelManager({
    driver,
    logger,
    reconnectDelaysMs: [100, 200, 400],
    schedule: timers.schedule,
  });
  const events: TunnelEvent[] = [];
  manager.subscribe((event) => events.push(event));
  /** Runs the next scheduled retry and lets its connect settle. */
  async function fireNext(): Promise<number> {
    const next = timers.pending.shift();
    if (next === undefined) throw new Error('nothing scheduled');
    next.run();
    await new Promise((resolve) => setImmediate(resolve));
    return next.ms;
  }
  return { manager, events, lines, timers, fireNext };
}

const states = (events: readonly TunnelEvent[]) =>
  events.map((e) => (e.type === 'status' ? e.status.state : e.type));

describe('tunnel manager (fake driver)', () => {
  it('goes connecting → online and passes the settings to the driver', async () => {
    const driver = new FakeDriver({ url: 'https://mama-put.ngrok.app' });
    const { manager, events } = setup(driver);
    expect(manager.status()).toEqual({ state: 'off' });
    const status = await manager.start(OPTIONS);
    expect(status).toEqual({ state: 'online', url: 'https://mama-put.ngrok.app' });
    expect(manager.status()).toEqual(status);
    expect(states(events)).toEqual(['connecting', 'online']);
    expect(driver.calls).toEqual([OPTIONS]);
  });

  it('retries after an error with growing delays, then resets the backoff once online', async () => {
    const noNet = new TunnelError(
      'NO_NETWORK',
      'Cannot reach ngrok — check the internet connection',
    );
    const driver = new FakeDriver(
      { error: noNet },
      { error: noNet },
      { error: noNet },
      { error: noNet },
      { url: 'https://a.ngrok.app' },
    );
    const { manager, timers, fireNext } = setup(driver);
    expect(await manager.start(OPTIONS)).toEqual({
      state: 'error',
      code: 'NO_NETWORK',
      message: 'Cannot reach ngrok — check the internet connection',
      retryInMs: 100,
    });
    expect(await fireNext()).toBe(100);
    expect(manager.status()).toMatchObject({ state: 'error', retryInMs: 200 });
    expect(await fireNext()).toBe(200);
    expect(manager.status()).toMatchObject({ state: 'error', retryInMs: 400 });
    expect(await fireNext()).toBe(400);
    // The last delay repeats.
    expect(manager.status()).toMatchObject({ state: 'error', retryInMs: 400 });
    await fireNext();
    expect(manager.status()).toEqual({ state: 'online', url: 'https://a.ngrok.app' });
    expect(timers.pending).toHaveLength(0);
    expect(driver.calls).toHaveLength(5);
  });

  it('does not retry an error only the shop can fix (bad authtoken, refused domain)', async () => {
    const driver = new FakeDriver({
      error: new TunnelError(
        'BAD_AUTHTOKEN',
        'The ngrok authtoken was refused — copy it again from your ngrok dashboard',
      ),
    });
    const { manager, timers } = setup(driver);
    expect(await manager.start(OPTIONS)).toEqual({
      state: 'error',
      code: 'BAD_AUTHTOKEN',
      message: 'The ngrok authtoken was refused — copy it again from your ngrok dashboard',
    });
    expect(timers.pending).toHaveLength(0);
  });

  it('replaces a dropped session and reports a change of public URL', async () => {
    const driver = new FakeDriver(
      { url: 'https://one.ngrok-free.app' },
      { url: 'https://two.ngrok-free.app' },
      { url: 'https://two.ngrok-free.app' },
    );
    const { manager, events, fireNext } = setup(driver);
    await manager.start(OPTIONS);
    const first = driver.sessions[0];
    first?.drop();
    expect(first?.closed).toBe(true);
    expect(manager.status()).toMatchObject({ state: 'error', code: 'NO_NETWORK', retryInMs: 100 });
    await fireNext();
    expect(manager.status()).toEqual({ state: 'online', url: 'https://two.ngrok-free.app' });
    expect(events.filter((e) => e.type === 'url-changed')).toEqual([
      {
        type: 'url-changed',
        previousUrl: 'https://one.ngrok-free.app',
        url: 'https://two.ngrok-free.app',
      },
    ]);
    // A drop that comes back on the same (reserved) URL is not a change.
    driver.sessions[1]?.drop(new TunnelError('NO_NETWORK', 'Cannot reach ngrok'));
    await fireNext();
    expect(manager.status()).toMatchObject({ state: 'online' });
    expect(events.filter((e) => e.type === 'url-changed')).toHaveLength(1);
  });

  it('stop closes the session, cancels a pending retry and goes off', async () => {
    const driver = new FakeDriver({ url: 'https://one.ngrok.app' }, { error: new Error('boom') });
    const { manager, timers, events } = setup(driver);
    await manager.start(OPTIONS);
    await manager.stop();
    expect(driver.sessions[0]?.closed).toBe(true);
    expect(manager.status()).toEqual({ state: 'off' });

    await manager.start(OPTIONS); // fails, schedules a retry
    expect(timers.pending).toHaveLength(1);
    await manager.stop();
    expect(timers.pending).toHaveLength(0);
    expect(states(events).at(-1)).toBe('off');
  });

  it('reports a URL change across stop and start (sales made before still carry the old URL)', async () => {
    const driver = new FakeDriver(
      { url: 'https://one.ngrok.app' },
      { url: 'https://two.ngrok.app' },
    );
    const { manager, events } = setup(driver);
    await manager.start(OPTIONS);
    await manager.stop();
    await manager.start(OPTIONS);
    expect(events.filter((e) => e.type === 'url-changed')).toHaveLength(1);
  });

  it('closes a session that connects after stop was called, and stays off', async () => {
    const driver = new FakeDriver('hang');
    const { manager } = setup(driver);
    const starting = manager.start(OPTIONS);
    expect(manager.status()).toEqual({ state: 'connecting' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(driver.calls).toHaveLength(1);
    await manager.stop();
    const late = driver.release('https://late.ngrok.app');
    await starting;
    expect(late.closed).toBe(true);
    expect(manager.status()).toEqual({ state: 'off' });
  });

  it('never puts the authtoken or the basic-auth password in a status, an event or the log', async () => {
    const driver = new FakeDriver(
      { error: new Error(`authentication failed for ${AUTHTOKEN} / ${PASSWORD}`) },
      {
        error: new TunnelError(
          'NO_NETWORK',
          `cannot reach ngrok with ${AUTHTOKEN}`,
          `raw ${PASSWORD}`,
        ),
      },
      { url: 'https://ok.ngrok.app' },
    );
    const { manager, events, lines, fireNext } = setup(driver);
    await manager.start(OPTIONS);
    expect(manager.status()).toMatchObject({ state: 'error', code: 'UNKNOWN' });
    await fireNext();
    await fireNext();
    const seen = JSON.stringify(events) + lines.join('\n');
    expect(seen).toContain('[redacted]');
    expect(seen).not.toContain(AUTHTOKEN);
    expect(seen).not.toContain(PASSWORD);
  });

  it('close() on quit shuts the tunnel and refuses to start again', async () => {
    const driver = new FakeDriver({ url: 'https://one.ngrok.app' });
    const { manager } = setup(driver);
    await manager.start(OPTIONS);
    await manager.close();
    expect(driver.sessions[0]?.closed).toBe(true);
    expect(manager.status()).toEqual({ state: 'off' });
    await expect(manager.start(OPTIONS)).rejects.toBeInstanceOf(TunnelError);
  });

  it('keeps notifying the other subscribers when one throws, and unsubscribes', async () => {
    const driver = new FakeDriver({ url: 'https://one.ngrok.app' });
    const { manager, events, lines } = setup(driver);
    const unsubscribe = manager.subscribe(() => {
      throw new Error('renderer gone');
    });
    await manager.start(OPTIONS);
    expect(states(events)).toEqual(['connecting', 'online']);
    expect(lines.join('\n')).toContain('status listener failed');
    unsubscribe();
    const before = lines.length;
    await manager.stop();
    expect(lines.slice(before).join('\n')).not.toContain('status listener failed');
  });
});
