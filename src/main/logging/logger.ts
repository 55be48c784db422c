import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createRedactor, type Redactor } from './redact';
import { RotatingFile } from './rotating-file';

export type { Logger } from 'pino';

export interface AppLoggerOptions {
  /** The data directory; the log goes to <dataDir>/logs/main.log. */
  readonly dataDir: string;
  readonly level?: string;
  readonly maxBytes?: number;
  readonly keep?: number;
  /** Shared with the secret store so that every secret it loads is scrubbed from the log. */
  readonly redactor?: Redactor;
  /** Also copy lines here (e.g. stderr in development). Redacted like the file. */
  readonly mirror?: { write(line: string): unknown };
}

export interface AppLogger {
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly path: string;
  close(): void;
}

/**
 * The main-process logger: JSON lines in a rotating file in the data directory. Redaction is
 * built in at two levels so that no later code can log a secret by accident: secret-looking
 * field names are masked before serialisation, and every registered secret value is scrubbed
 * from the final line (messages, error stacks, anything).
 */
export function createAppLogger(options: AppLoggerOptions): AppLogger {
  const redactor = options.redactor ?? createRedactor();
  const path = join(options.dataDir, 'logs', 'main.log');
  const file = new RotatingFile({
    path,
    maxBytes: options.maxBytes ?? 5 * 1024 * 1024,
    keep: options.keep ?? 5,
  });
  const destination = {
    write(line: string) {
      file.write(line);
      options.mirror?.write(line);
    },
  };
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        log: (object) => redactor.redactValue(object) as Record<string, unknown>,
      },
      hooks: {
        streamWrite: (line) => redactor.redactText(line),
      },
    },
    destination,
  );
  return { logger, redactor, path, close: () => file.close() };
}
