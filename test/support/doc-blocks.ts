import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunnableBlock } from './markdown-docs';

export interface BlockRunFailure {
  /** The block that failed (its fence's line), or null when the whole run timed out before one. */
  readonly block: RunnableBlock | null;
  readonly exitCode: number | null;
  readonly output: string;
}

export interface DocBlockRunner {
  /** Runs a document's runnable blocks in order in one bash; null when every block passed. */
  run(document: string, blocks: readonly RunnableBlock[]): Promise<BlockRunFailure | null>;
}

/**
 * Runs documents' command blocks as a reader would in a second terminal: `bash -euo pipefail`
 * in the project's folder, with `env` added (the test's TRANSFER_TILL_DATA_DIR). `curl` is run
 * with `--fail-with-body`, and a bridge answer `{"ok":false,…}` fails it too, so a refusal fails
 * the block instead of printing and passing.
 */
export function docBlockRunner(options: {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}): DocBlockRunner {
  const bin = mkdtempSync(join(tmpdir(), 'till-docs-bin-'));
  const curl = join(bin, 'curl');
  // The real curl is the one later on PATH; the wrapper adds --fail-with-body and fails on the
  // bridge's own refusals too (answered 200 with {"ok":false,…}, except 403 for a role).
  writeFileSync(
    curl,
    [
      '#!/bin/sh',
      'out=$(mktemp)',
      `PATH="${process.env.PATH ?? ''}" curl --fail-with-body "$@" > "$out"`,
      'code=$?',
      'cat "$out"',
      'if [ "$code" -eq 0 ] && grep -q \'^{"ok":false\' "$out"; then',
      '  rm -f "$out"; echo "the till refused the call (ok:false)" >&2; exit 1',
      'fi',
      'rm -f "$out"; exit "$code"',
      '',
    ].join('\n'),
  );
  chmodSync(curl, 0o755);
  return {
    async run(document, blocks) {
      const marker = join(bin, `${document.replace(/\W/g, '_')}.block`);
      const script = blocks
        .map((block, index) => `echo ${index} > '${marker}'\n${block.code}\n`)
        .join('');
      writeFileSync(marker, '');
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, options.timeoutMs);
      const exitCode = await new Promise<number | null>((resolve) =>
        child.once('close', (code) => resolve(code)),
      );
      clearTimeout(timer);
      if (exitCode === 0 && !timedOut) return null;
      const index = Number.parseInt(readFileSync(marker, 'utf8'), 10);
      return {
        block: Number.isNaN(index) ? null : (blocks[index] ?? null),
        exitCode,
        output: timedOut ? `${output}\n(timed out after ${options.timeoutMs} ms)` : output,
      };
    },
  };
}
