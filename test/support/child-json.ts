import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { seedNamedTill } from './named-till';

export interface JsonChild<T> {
  readonly child: ChildProcess;
  readonly first: T;
  /** Everything the child wrote to stderr so far, for failure messages. */
  stderr(): string;
  /** Waits for a later stdout line (parsed as JSON) that matches. */
  waitForLine<L>(match: (line: unknown) => line is L, timeoutMs?: number): Promise<L>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a TypeScript entry point under tsx and waits for its first stdout line, which by
 * contract is one JSON object (the sandbox and the browser shell both print one).
 */
export function startJsonChild<T>(
  script: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly timeoutMs?: number;
    readonly env?: NodeJS.ProcessEnv;
    /** The browser shell starts as a fresh till that asks the shop's name (see named-till.ts). */
    readonly firstStart?: boolean;
  },
): Promise<JsonChild<T>> {
  if (script === 'scripts/web.ts' && options.firstStart !== true) seedNamedTill(args);
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${script} printed no first line within ${options.timeoutMs ?? 60_000} ms\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    const lines = createInterface({ input: child.stdout });
    const later: unknown[] = [];
    const waiters = new Set<() => void>();
    let first = true;
    lines.on('line', (line) => {
      if (first) return;
      try {
        later.push(JSON.parse(line));
      } catch {
        later.push(line);
      }
      for (const wake of waiters) wake();
    });
    function waitForLine<L>(match: (line: unknown) => line is L, timeoutMs = 20_000): Promise<L> {
      return new Promise<L>((resolveLine, rejectLine) => {
        const check = () => {
          const found = later.find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(giveUp);
          resolveLine(found);
          return true;
        };
        const giveUp = setTimeout(() => {
          waiters.delete(check);
          rejectLine(new Error(`${script}: no matching line within ${timeoutMs} ms\n${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    }
    lines.once('line', (line) => {
      first = false;
      clearTimeout(timer);
      try {
        resolve({
          child,
          first: JSON.parse(line) as T,
          stderr: () => stderr,
          waitForLine,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`${script}: first line is not JSON: ${line}\n${stderr}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before its first line\n${stderr}`));
    });
  });
}
