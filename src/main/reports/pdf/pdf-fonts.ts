/**
 * The font the report PDF embeds: DejaVu Sans, from the `dejavu-fonts-ttf` npm package (free
 * licence, redistributable with the app). PDF's built-in fonts (Helvetica...) have no Naira sign:
 * "₦" would print as nothing or as a box, so every text of the report is set in DejaVu.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError, type AppErrorCode } from '#shared/errors';

export type ReportFileErrorCode = Extract<AppErrorCode, 'PDF_FONT_MISSING' | 'PDF_FAILED'>;

/** The report file could not be made (the message is for the owner, with what to do). */
export class ReportFileError extends AppError<ReportFileErrorCode> {
  constructor(code: ReportFileErrorCode, message: string) {
    super(code, message);
    this.name = 'ReportFileError';
  }
}

export interface PdfFonts {
  readonly regular: string;
  readonly bold: string;
}

let found: PdfFonts | null = null;

/** The TTF files' paths (inside the packaged app's node_modules in the desktop build). */
export function reportFonts(): PdfFonts {
  if (found) return found;
  let dir: string;
  try {
    // The package has no entry point: its package.json is the one file sure to resolve.
    dir = dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
  } catch {
    throw new ReportFileError(
      'PDF_FONT_MISSING',
      'The PDF font (dejavu-fonts-ttf) is not installed. Run npm install, or reinstall the app.',
    );
  }
  const fonts: PdfFonts = {
    regular: join(dir, 'ttf', 'DejaVuSans.ttf'),
    bold: join(dir, 'ttf', 'DejaVuSans-Bold.ttf'),
  };
  for (const path of [fonts.regular, fonts.bold]) {
    if (!existsSync(path)) {
      throw new ReportFileError(
        'PDF_FONT_MISSING',
        `The PDF font file ${path} is missing. Reinstall the app.`,
      );
    }
  }
  found = fonts;
  return fonts;
}
