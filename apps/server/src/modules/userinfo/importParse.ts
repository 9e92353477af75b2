import { Readable } from 'node:stream';
import {
  USER_IMPORT_COLUMNS,
  USER_IMPORT_LANGS,
  UserImportKeys,
  UserImportLimits,
  userImportHeaders,
  type UserImportColumn,
} from '@intercom/contract';
import { parse } from 'csv-parse';
import type { AppDeps } from '../../appDeps.js';
import { AppError } from '../../http/AppError.js';
import { xlsxRecords } from './importXlsx.js';

/** One data row: its row number in the file (the header is row 1) and its cells by column. */
export interface ImportRow {
  row: number;
  cells: Partial<Record<UserImportColumn, string>>;
}

/** One row of the file as read: its number and its cells' text, left to right. */
export interface ImportRecord {
  row: number;
  values: string[];
}

/** What reading one file may cost (docs/security.md "Imports"). */
export interface ReadLimits {
  /** Bytes an XLSX's entries may inflate to, all together, counted as they inflate. */
  maxInflatedBytes: number;
  maxSharedStrings: number;
  /** UTF-8 bytes of all shared strings together. */
  maxSharedStringBytes: number;
  /** Rows read, the header included; one more refuses the file (too_many_rows). */
  maxRecords: number;
  /** Cells read per row: the template's columns; a cell further right is ignored. */
  maxColumns: number;
  /** Characters of all cells together: what a CSV of the size limit could hold. */
  maxTextChars: number;
}

export function readLimits(settings: AppDeps['config']['imports']): ReadLimits {
  return {
    maxInflatedBytes: settings.maxInflatedBytes,
    maxSharedStrings: settings.maxSharedStrings,
    maxSharedStringBytes: settings.maxSharedStringBytes,
    maxRecords: UserImportLimits.maxRows + 1,
    maxColumns: USER_IMPORT_COLUMNS.length,
    maxTextChars: UserImportLimits.maxBytes,
  };
}

const fileError = (key: string) => AppError.field('file', key);

/** Header text (any of the four languages, or the field name) → column. */
const HEADER_COLUMNS = new Map<string, UserImportColumn>();
for (const column of USER_IMPORT_COLUMNS) {
  HEADER_COLUMNS.set(headerKey(column), column);
  for (const lang of USER_IMPORT_LANGS) HEADER_COLUMNS.set(headerKey(userImportHeaders[lang][column]), column);
}

function headerKey(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Reads an import file: XLSX (a zip) or CSV (UTF-8, BOM optional, `,` separated). Refused whole
 * (4000 on `file`): another format or binary junk, an XLSX that would expand past the limits, more
 * than 20,000 data rows, a header without MobilePhone, no data row. Blank rows are skipped; cells
 * right of the template's last column are ignored. The server runs this in a worker thread
 * (importReader.ts).
 */
export async function parseImportFile(body: Buffer, limits: ReadLimits): Promise<ImportRow[]> {
  if (body.length === 0) throw fileError(UserImportKeys.empty);
  if (body.length > UserImportLimits.maxBytes) throw fileError(UserImportKeys.fileTooLarge);
  const records = body.subarray(0, 4).equals(XLSX_MAGIC)
    ? await xlsxRecords(body, limits)
    : await csvRecords(body, limits);
  return toRows(records);
}

function toRows(records: ImportRecord[]): ImportRow[] {
  const header = records[0];
  if (!header) throw fileError(UserImportKeys.empty);
  const columns = header.values.map((text) => HEADER_COLUMNS.get(headerKey(text)));
  if (!columns.includes('MobilePhone')) throw fileError(UserImportKeys.headerMissing);
  const rows: ImportRow[] = [];
  for (const record of records.slice(1)) {
    const cells: ImportRow['cells'] = {};
    let blank = true;
    record.values.forEach((value, i) => {
      const column = columns[i];
      const text = value.trim();
      if (column && cells[column] === undefined) cells[column] = text;
      if (text !== '') blank = false;
    });
    if (!blank) rows.push({ row: record.row, cells });
  }
  if (rows.length === 0) throw fileError(UserImportKeys.empty);
  return rows;
}

/** Bytes of a CSV handed to the parser at a time. */
const CSV_CHUNK = 64 * 1024;
// Binary junk that happens to be valid UTF-8 still has control characters text never has.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The file in chunks, each checked to be UTF-8 text (else userImport.file_type) just before the
 * parser takes it: the parser pulls the next chunk only when it has room (backpressure), and none
 * once reading stops.
 */
function* textChunks(body: Buffer): Generator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < body.length; i += CSV_CHUNK) {
    const chunk = body.subarray(i, i + CSV_CHUNK);
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: i + CSV_CHUNK < body.length });
    } catch {
      throw fileError(UserImportKeys.fileType);
    }
    if (CONTROL.test(text)) throw fileError(UserImportKeys.fileType);
    yield chunk;
  }
}

async function csvRecords(body: Buffer, limits: ReadLimits): Promise<ImportRecord[]> {
  const source = Readable.from(textChunks(body), { objectMode: false });
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: false, max_record_size: 64 * 1024 });
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  const records: ImportRecord[] = [];
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      if (records.length >= limits.maxRecords) throw fileError(UserImportKeys.tooManyRows);
      records.push({ row: records.length + 1, values: values.slice(0, limits.maxColumns) });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError(UserImportKeys.fileUnreadable);
  } finally {
    source.destroy();
    parser.destroy();
  }
  return records;
}
