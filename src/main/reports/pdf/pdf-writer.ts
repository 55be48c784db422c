/**
 * A small page-flowing layer over PDFKit for the report: headings, paragraphs and tables that
 * break across A4 pages (a table repeats its header row on the next page), and a footer with
 * "Page n of m" on every page once the content is laid out.
 */
import PDFDocument from 'pdfkit';
import type { PdfFonts } from './pdf-fonts';

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

const MARGIN = 50;
const BODY_SIZE = 10;
const SMALL_SIZE = 8;
const CELL_PAD = 4;
const RULE_COLOR = '#999999';
const MUTED_COLOR = '#444444';

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

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  function style(bold: boolean, size = BODY_SIZE, color = '#000000'): void {
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(size)
      .fillColor(color);
  }

  /** A new page when `height` more points do not fit on this one. */
  function room(height: number): void {
    if (doc.y + height > bottom()) doc.addPage();
  }

  function write(text: string, bold: boolean, size: number, color: string, after: number): void {
    style(bold, size, color);
    room(Math.min(doc.heightOfString(text, { width }), 3 * size));
    doc.text(text, left, doc.y, { width });
    doc.y += after;
  }

  function rowHeight(columns: readonly ColumnBox[], cells: readonly string[]): number {
    return Math.max(
      ...columns.map(
        (column, i) =>
          doc.heightOfString(cells[i] ?? '', { width: column.width - 2 * CELL_PAD }) + 2 * CELL_PAD,
      ),
    );
  }

  interface ColumnBox {
    readonly x: number;
    readonly width: number;
    readonly align: 'left' | 'right';
  }

  function drawRow(columns: readonly ColumnBox[], cells: readonly string[], bold: boolean): void {
    style(bold);
    const height = rowHeight(columns, cells);
    const top = doc.y;
    columns.forEach((column, i) => {
      doc.text(cells[i] ?? '', column.x + CELL_PAD, top + CELL_PAD, {
        width: column.width - 2 * CELL_PAD,
        align: column.align,
      });
    });
    doc.y = top + height;
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .strokeColor(RULE_COLOR)
      .stroke();
  }

  return {
    title(text) {
      write(text, true, 18, '#000000', 4);
    },
    heading(text) {
      // A heading never ends a page: it needs its first lines below it.
      room(60);
      doc.y += 8;
      write(text, true, 13, '#000000', 4);
    },
    paragraph(text, options = {}) {
      write(
        text,
        options.bold ?? false,
        options.muted ? SMALL_SIZE + 1 : BODY_SIZE,
        options.muted ? MUTED_COLOR : '#000000',
        3,
      );
    },
    block(lines) {
      const height = lines.reduce((sum, line) => {
        style(line.bold ?? false);
        return sum + doc.heightOfString(line.text, { width }) + 2;
      }, 0);
      if (height < bottom() - doc.page.margins.top) room(height);
      for (const line of lines) write(line.text, line.bold ?? false, BODY_SIZE, '#000000', 2);
    },
    table(columns, rows) {
      const total = columns.reduce((sum, column) => sum + column.share, 0);
      let x = left;
      const boxes: ColumnBox[] = columns.map((column) => {
        const box = {
          x,
          width: (column.share / total) * width,
          align: column.align ?? 'left',
        };
        x += box.width;
        return box;
      });
      const headers = columns.map((column) => column.header);
      style(true);
      const headerHeight = rowHeight(boxes, headers);
      room(headerHeight + (rows[0] ? rowHeight(boxes, rows[0].cells) : 0));
      drawRow(boxes, headers, true);
      for (const row of rows) {
        style(row.bold ?? false);
        if (doc.y + rowHeight(boxes, row.cells) > bottom()) {
          doc.addPage();
          drawRow(boxes, headers, true);
        }
        drawRow(boxes, row.cells, row.bold ?? false);
      }
      doc.y += 6;
    },
    gap(points = 6) {
      doc.y += points;
    },
    async finish() {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        // The footer sits in the bottom margin: lift the margin so PDFKit adds no page for it.
        const margin = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        style(false, SMALL_SIZE, MUTED_COLOR);
        const y = doc.page.height - margin + 16;
        const number = `Page ${i - range.start + 1} of ${range.count}`;
        const numberWidth = doc.widthOfString(number);
        // One line: a long shop name ends in "…" before the page number.
        doc.text(meta.footer, left, y, {
          width: width - numberWidth - 12,
          height: SMALL_SIZE * 1.4,
          ellipsis: true,
        });
        doc.text(number, left + width - numberWidth, y, { lineBreak: false });
        doc.page.margins.bottom = margin;
      }
      doc.end();
      await ended;
      return { bytes: new Uint8Array(Buffer.concat(chunks)), pages: range.count };
    },
  };
}
