/**
 * The page-flowing steps of the report's PDF (pdf-writer.ts composes them): text that moves to
 * the next page when it does not fit, table rows with their rule, a table that repeats its
 * header row on a new page, and the footer with "Page n of m" written once the content is laid
 * out. Each step takes the document it draws on.
 */
import type PDFDocument from 'pdfkit';

export type Doc = InstanceType<typeof PDFDocument>;

export const MARGIN = 50;
export const BODY_SIZE = 10;
export const SMALL_SIZE = 8;
const CELL_PAD = 4;
const RULE_COLOR = '#999999';
export const MUTED_COLOR = '#444444';

export interface ColumnBox {
  readonly x: number;
  readonly width: number;
  readonly align: 'left' | 'right';
}

/** The text width between the margins. */
export function textWidth(doc: Doc): number {
  return doc.page.width - 2 * MARGIN;
}

export function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

export function style(doc: Doc, bold: boolean, size = BODY_SIZE, color = '#000000'): void {
  doc
    .font(bold ? 'bold' : 'regular')
    .fontSize(size)
    .fillColor(color);
}

/** A new page when `height` more points do not fit on this one. */
export function room(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

export function write(
  doc: Doc,
  text: string,
  bold: boolean,
  size: number,
  color: string,
  after: number,
): void {
  const width = textWidth(doc);
  style(doc, bold, size, color);
  room(doc, Math.min(doc.heightOfString(text, { width }), 3 * size));
  doc.text(text, MARGIN, doc.y, { width });
  doc.y += after;
}

function rowHeight(doc: Doc, columns: readonly ColumnBox[], cells: readonly string[]): number {
  return Math.max(
    ...columns.map(
      (column, i) =>
        doc.heightOfString(cells[i] ?? '', { width: column.width - 2 * CELL_PAD }) + 2 * CELL_PAD,
    ),
  );
}

function drawRow(
  doc: Doc,
  columns: readonly ColumnBox[],
  cells: readonly string[],
  bold: boolean,
): void {
  style(doc, bold);
  const height = rowHeight(doc, columns, cells);
  const top = doc.y;
  columns.forEach((column, i) => {
    doc.text(cells[i] ?? '', column.x + CELL_PAD, top + CELL_PAD, {
      width: column.width - 2 * CELL_PAD,
      align: column.align,
    });
  });
  doc.y = top + height;
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + textWidth(doc), doc.y)
    .lineWidth(0.5)
    .strokeColor(RULE_COLOR)
    .stroke();
}

/** The columns' boxes: the shares scaled to fill the text width. */
export function columnBoxes(
  doc: Doc,
  columns: readonly { readonly share: number; readonly align?: 'left' | 'right' }[],
): ColumnBox[] {
  const width = textWidth(doc);
  const total = columns.reduce((sum, column) => sum + column.share, 0);
  let x = MARGIN;
  return columns.map((column) => {
    const box = { x, width: (column.share / total) * width, align: column.align ?? 'left' };
    x += box.width;
    return box;
  });
}

/** A table that breaks across pages, its header row repeated on each new page. */
export function drawTable(
  doc: Doc,
  boxes: readonly ColumnBox[],
  headers: readonly string[],
  rows: readonly { readonly cells: readonly string[]; readonly bold?: boolean }[],
): void {
  style(doc, true);
  const headerHeight = rowHeight(doc, boxes, headers);
  room(doc, headerHeight + (rows[0] ? rowHeight(doc, boxes, rows[0].cells) : 0));
  drawRow(doc, boxes, headers, true);
  for (const row of rows) {
    style(doc, row.bold ?? false);
    if (doc.y + rowHeight(doc, boxes, row.cells) > bottom(doc)) {
      doc.addPage();
      drawRow(doc, boxes, headers, true);
    }
    drawRow(doc, boxes, row.cells, row.bold ?? false);
  }
  doc.y += 6;
}

/** "Page n of m" and the footer text on every buffered page; returns the page count. */
export function drawFooters(doc: Doc, footer: string): number {
  const width = textWidth(doc);
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: lift the margin so PDFKit adds no page for it.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    style(doc, false, SMALL_SIZE, MUTED_COLOR);
    const y = doc.page.height - margin + 16;
    const number = `Page ${i - range.start + 1} of ${range.count}`;
    const numberWidth = doc.widthOfString(number);
    // One line: a long shop name ends in "…" before the page number.
    doc.text(footer, MARGIN, y, {
      width: width - numberWidth - 12,
      height: SMALL_SIZE * 1.4,
      ellipsis: true,
    });
    doc.text(number, MARGIN + width - numberWidth, y, { lineBreak: false });
    doc.page.margins.bottom = margin;
  }
  return range.count;
}
