import { closeSync, existsSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir, keepPrivate } from '#main/config/private-files';

export interface RotatingFileOptions {
  readonly path: string;
  /** Rotate when the current file would grow past this many bytes. */
  readonly maxBytes: number;
  /** How many old files to keep: app.log.1 … app.log.N. */
  readonly keep: number;
}

/**
 * An append-only log file that rotates by size. Writes are synchronous: a crash loses no line.
 * Its folder is owner-only, and so are the file and the old ones (also those left readable).
 */
export class RotatingFile {
  private fd: number;
  private size: number;

  constructor(private readonly options: RotatingFileOptions) {
    ensurePrivateDir(dirname(options.path));
    this.fd = openSync(options.path, 'a', 0o600);
    for (let i = 0; i <= options.keep; i++) {
      keepPrivate(i === 0 ? options.path : `${options.path}.${i}`);
    }
    this.size = fstatSync(this.fd).size;
  }

  write(chunk: string): boolean {
    const bytes = Buffer.byteLength(chunk);
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
    writeSync(this.fd, chunk);
    this.size += bytes;
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }

  private rotate(): void {
    closeSync(this.fd);
    const { path, keep } = this.options;
    rmSync(`${path}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) {
      if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
    }
    if (keep >= 1) renameSync(path, `${path}.1`);
    else rmSync(path, { force: true });
    this.fd = openSync(path, 'a', 0o600);
    this.size = 0;
  }
}
