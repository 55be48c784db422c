import { describe, expect, it } from 'vitest';
import { captureLogger } from '#support/webhook-world';
import { createAfterAnswer } from './after-answer';
import type { StoredCallback } from './types';

function stored(id: number): StoredCallback {
  return { id, hint: { reference: `sale-${id}` }, parseStatus: 'ok' };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('after the answer', () => {
  it('logs the callbacks answered in one turn as one line, a turn later, then hands them on', async () => {
    const { logger, lines } = captureLogger();
    const handed: number[] = [];
    const linesWhenHanded: number[] = [];
    const after = createAfterAnswer({
      logger,
      onCallback: (callback) => {
        handed.push(callback.id);
        linesWhenHanded.push(lines.length);
      },
      closed: () => false,
    });
    // A group commit resolves its batch at once: the answers run as one run of microtasks.
    await Promise.all([1, 2, 3].map((id) => Promise.resolve().then(() => after.add(stored(id)))));
    expect(lines).toEqual([]);
    expect(handed).toEqual([]);
    await turn();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      msg: 'webhook: 3 callbacks stored',
      callbackIds: [1, 2, 3],
    });
    expect(handed).toEqual([1, 2, 3]);
    expect(linesWhenHanded).toEqual([1, 1, 1]);
    after.close();
  });

  it('under a burst: at most one line a second, every id in it, the engine not kept waiting', async () => {
    let clock = 10_000;
    const { logger, lines } = captureLogger();
    const handed: number[] = [];
    const after = createAfterAnswer({
      logger,
      onCallback: (callback) => handed.push(callback.id),
      closed: () => false,
      logEveryMs: 40,
      now: () => clock,
    });
    after.add(stored(1));
    await turn();
    expect(lines).toHaveLength(1);
    // The next batches within the interval: handed on at once, logged at the interval's end.
    for (const ids of [[2, 3], [4]]) {
      clock += 10;
      for (const id of ids) after.add(stored(id));
      await turn();
    }
    expect(handed).toEqual([1, 2, 3, 4]);
    expect(lines).toHaveLength(1);
    clock += 20;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({
      msg: 'webhook: 3 callbacks stored',
      callbackIds: [2, 3, 4],
    });
  });

  it('closing writes the ids not logged yet', async () => {
    let clock = 10_000;
    const { logger, lines } = captureLogger();
    const after = createAfterAnswer({
      logger,
      onCallback: () => {},
      closed: () => false,
      logEveryMs: 60_000,
      now: () => clock,
    });
    after.add(stored(1));
    await turn();
    clock += 5;
    after.add(stored(2));
    await turn();
    expect(lines).toHaveLength(1);
    after.close();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({
      msg: 'webhook: callback stored',
      callbackIds: [2],
    });
  });

  it('a lone callback keeps the singular line', async () => {
    const { logger, lines } = captureLogger();
    const after = createAfterAnswer({ logger, onCallback: () => {}, closed: () => false });
    after.add(stored(7));
    await turn();
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      msg: 'webhook: callback stored',
      callbackIds: [7],
    });
  });

  it('one failing handler is logged and the rest of the batch still goes to the engine', async () => {
    const { logger, lines } = captureLogger();
    const handed: number[] = [];
    const after = createAfterAnswer({
      logger,
      onCallback: (callback) => {
        if (callback.id === 1) throw new Error('engine exploded');
        handed.push(callback.id);
      },
      closed: () => false,
    });
    after.add(stored(1));
    after.add(stored(2));
    await turn();
    expect(handed).toEqual([2]);
    expect(lines.join('\n')).toContain('onCallback failed');
  });

  it('nothing goes to the engine once the listener is closed (the rows wait for the next start)', async () => {
    const { logger } = captureLogger();
    const handed: number[] = [];
    let closed = false;
    const after = createAfterAnswer({
      logger,
      onCallback: (callback) => handed.push(callback.id),
      closed: () => closed,
    });
    after.add(stored(1));
    closed = true;
    await turn();
    expect(handed).toEqual([]);
  });
});
