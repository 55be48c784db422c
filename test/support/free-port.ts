import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: for a process that must come back on the
 * same address after a restart (a hub whose counters keep its address), where port 0 would not.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (port === 0) throw new Error('the system gave no free port');
  return port;
}
