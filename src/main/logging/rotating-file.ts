import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  readonly path: string;
  /** Rotate when the current file would grow past this many bytes. */
  readonly maxBytes: number;
  /** How many old files to keep: app.log.1 … app.log.N. */
  readonly keep: number;
}

/** An append-only log file that rotates by size. Writes are synchronous: a crash loses no line. */
export class RotatingFile {
  private fd: number;
  private size: number;

  constructor(private readonly options: RotatingFileOptions) {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    this.fd = openSync(options.path, 'a', 0o600);
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
