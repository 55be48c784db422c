import { describe, expect, it } from 'vitest';
import { transactionRecord } from '#support/shop-history';
import { createReadAhead } from './read-ahead';

const tx = transactionRecord;

describe('read-ahead', () => {
  it('asks for the next pages early, drops wrong guesses, follows a clamped page size and aborts on close', async () => {
    const asked: number[] = [];
    const aborted: number[] = [];
    const client = {
      listTransactions(
        page: { offset: number; limit: number },
        options: { signal?: AbortSignal } = {},
      ) {
        asked.push(page.offset);
        options.signal?.addEventListener('abort', () => aborted.push(page.offset));
        // A server that clamps pages to 8 rows once past offset 20.
        const size = page.offset >= 20 ? 8 : page.limit;
        return Promise.resolve({
          count: 100,
          transactions: Array.from({ length: size }, () => tx()),
          unreadable: [],
        });
      },
    };
    const ahead = createReadAhead(client, { depth: 2 });
    await ahead.listTransactions({ offset: 0, limit: 10 });
    expect(asked).toEqual([0, 10, 20]);
    await ahead.listTransactions({ offset: 10, limit: 10 });
    expect(asked).toEqual([0, 10, 20, 30]);
    const short = await ahead.listTransactions({ offset: 20, limit: 10 });
    expect(short.transactions).toHaveLength(8);
    expect(aborted).toEqual([30, 40]); // guesses that assumed a full page
    // The short page with more rows to come shows the server's page size: guesses go on by it.
    expect(asked.slice(-2)).toEqual([28, 36]);
    await ahead.listTransactions({ offset: 28, limit: 10 });
    expect(asked.slice(-3)).toEqual([28, 36, 44]);
    expect(aborted).toEqual([30, 40]);

    const fresh = createReadAhead(client, { depth: 2 });
    await fresh.listTransactions({ offset: 0, limit: 10 });
    fresh.close();
    expect(aborted.slice(-2)).toEqual([10, 20]);
  });
});
