/**
 * A strict RFC 4180 reader for tests: CRLF records, quoted fields with doubled quotes. It throws
 * on anything a lenient reader would guess about (a bare LF, a quote inside an unquoted field,
 * a last record without CRLF), so a test that parses the export back also checks its framing.
 * A UTF-8 byte-order mark at the very start (the export writes one for Excel) is skipped, as a
 * spreadsheet does; anywhere else it is field text.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
        const next = text[i];
        if (next !== ',' && next !== '\r') throw new Error(`junk after a quoted field at ${i}`);
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`CR without LF at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n') {
      throw new Error(`bare LF at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) throw new Error('last record does not end in CRLF');
  return records;
}
