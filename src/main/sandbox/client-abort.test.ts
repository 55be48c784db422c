import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import type { SandboxProvider } from './sandbox-provider';
import { startTestSandbox, waitFor } from '#support/sandbox-world';

let sandbox: SandboxProvider | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Sends the headers and half the body of a create, then drops the connection (a client timeout). */
function abandonCreate(target: SandboxProvider): Promise<void> {
  const url = new URL(`${target.baseUrl}/virtual/new-account`);
  return new Promise((resolve) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': '200',
        secretKey: target.secretKey,
      },
    });
    req.on('error', () => resolve());
    req.write('{"reference":"TT-ABANDONED",');
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 50);
  });
}

it('a client that goes away mid-request is not reported as a sandbox error', async () => {
  const errors: unknown[] = [];
  ({ sandbox } = await startTestSandbox({ onError: (error) => errors.push(error) }));
  const served = sandbox;
  await abandonCreate(served);
  // The sandbox is still serving, and it said nothing about the dropped request.
  await waitFor(
    async () => (await fetch(`${served.controlUrl}/faults`)).ok || undefined,
    'the control API',
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(errors).toEqual([]);
});
