import { execFileSync } from 'node:child_process';

/**
 * The text of a PDF as Debian's pdftotext (poppler-utils) reads it, layout kept (a table row
 * stays on one line), pages separated by form feeds. .ci/run installs poppler-utils; a machine
 * without it fails here with what to install, never skips.
 */
export function pdfText(bytes: Uint8Array): string {
  try {
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], {
      input: bytes,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is missing: install poppler-utils (apt-get install poppler-utils), as .ci/run does',
      );
    }
    throw error;
  }
}
