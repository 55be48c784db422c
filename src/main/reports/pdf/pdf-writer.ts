/**
 * A small page-flowing layer over PDFKit for the report: headings, paragraphs and tables that
 * break across A4 pages (a table repeats its header row on the next page), and a footer with
 * "Page n of m" on every page once the content is laid out. The drawing steps are
 * pdf-layout.ts; this file makes the document and composes them.
 */
import PDFDocument from 'pdfkit';
import type { PdfFonts } from './pdf-fonts';
import {
  BODY_SIZE,
  bottom,
  columnBoxes,
  drawFooters,
  drawTable,
  MARGIN,
  MUTED_COLOR,
  room,
  SMALL_SIZE,
  style,
  textWidth,
  write,
} from './pdf-layout';

export interface PdfColumn {
  readonly header: string;
  /** A share of the text width; the shares of a table are scaled to fill it. */
  readonly share: number;
  readonly align?: 'left' | 'right';
}

export interface PdfRow {
  readonly cells: readonly string[];
  readonly bold?: boolean;
}

export interface PdfMeta {
  readonly title: string;
  readonly subject: string;
  /** The document's creation date: the report's own time, so the same report makes the same file. */
  readonly createdAt: number;
  /** Printed at the foot of every page, left of the page number. */
  readonly footer: string;
}

export interface RenderedPdf {
  readonly bytes: Uint8Array;
  readonly pages: number;
}

export interface PdfWriter {
  title(text: string): void;
  heading(text: string): void;
  paragraph(text: string, options?: { readonly bold?: boolean; readonly muted?: boolean }): void;
  /** Lines that belong together: moved to the next page whole when they do not fit. */
  block(lines: readonly { readonly text: string; readonly bold?: boolean }[]): void;
  table(columns: readonly PdfColumn[], rows: readonly PdfRow[]): void;
  gap(points?: number): void;
  finish(): Promise<RenderedPdf>;
}

export function createPdfWriter(fonts: PdfFonts, meta: PdfMeta): PdfWriter {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    // The embedded font from the start: PDF's standard fonts have no "₦".
    font: fonts.regular,
    info: {
      Title: meta.title,
      Subject: meta.subject,
      Creator: 'Transfer Till',
      CreationDate: new Date(meta.createdAt),
    },
    lang: 'en-NG',
    displayTitle: true,
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', (error: unknown) => reject(error instanceof Error ? error : new Error('PDF')));
  });

  return {
    title(text) {
      write(doc, text, true, 18, '#000000', 4);
    },
    heading(text) {
      // A heading never ends a page: it needs its first lines below it.
      room(doc, 60);
      doc.y += 8;
      write(doc, text, true, 13, '#000000', 4);
    },
    paragraph(text, options = {}) {
      write(
        doc,
        text,
        options.bold ?? false,
        options.muted ? SMALL_SIZE + 1 : BODY_SIZE,
        options.muted ? MUTED_COLOR : '#000000',
        3,
      );
    },
    block(lines) {
      const width = textWidth(doc);
      const height = lines.reduce((sum, line) => {
        style(doc, line.bold ?? false);
        return sum + doc.heightOfString(line.text, { width }) + 2;
      }, 0);
      if (height < bottom(doc) - doc.page.margins.top) room(doc, height);
      for (const line of lines) write(doc, line.text, line.bold ?? false, BODY_SIZE, '#000000', 2);
    },
    table(columns, rows) {
      drawTable(
        doc,
        columnBoxes(doc, columns),
        columns.map((column) => column.header),
        rows,
      );
    },
    gap(points = 6) {
      doc.y += points;
    },
    async finish() {
      const pages = drawFooters(doc, meta.footer);
      doc.end();
      await ended;
      return { bytes: new Uint8Array(Buffer.concat(chunks)), pages };
    },
  };
}
