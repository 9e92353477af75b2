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
import ExcelJS from 'exceljs';
import { AppError } from '../../http/AppError.js';
import { checkZipExpansion } from './importZip.js';

/** One data row: its row number in the file (the header is row 1) and its cells by column. */
export interface ImportRow {
  row: number;
  cells: Partial<Record<UserImportColumn, string>>;
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
 * (4000 on `file`): another format or binary junk, an XLSX that would expand past the limit, more
 * than 20,000 data rows, a header without MobilePhone, no data row. Blank rows are skipped.
 */
export async function parseImportFile(body: Buffer): Promise<ImportRow[]> {
  if (body.length === 0) throw fileError(UserImportKeys.empty);
  if (body.length > UserImportLimits.maxBytes) throw fileError(UserImportKeys.fileTooLarge);
  const records = body.subarray(0, 4).equals(XLSX_MAGIC) ? await xlsxRecords(body) : await csvRecords(body);
  return toRows(records);
}

function toRows(records: { row: number; values: string[] }[]): ImportRow[] {
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

/** Rows past the header the cap allows; one more refuses the file, and reading stops there. */
const MAX_RECORDS = UserImportLimits.maxRows + 1;

function assertText(body: Buffer): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw fileError(UserImportKeys.fileType);
  }
  // Binary junk that happens to be valid UTF-8 still has control characters text never has.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) throw fileError(UserImportKeys.fileType);
}

async function csvRecords(body: Buffer): Promise<{ row: number; values: string[] }[]> {
  assertText(body);
  const parser = Readable.from([body]).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false, max_record_size: 64 * 1024 }),
  );
  const records: { row: number; values: string[] }[] = [];
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      if (records.length >= MAX_RECORDS) {
        parser.destroy();
        throw fileError(UserImportKeys.tooManyRows);
      }
      records.push({ row: records.length + 1, values });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError(UserImportKeys.fileUnreadable);
  }
  return records;
}

/** A cell as text; a formula is its formula text (`=HYPERLINK(...)`), never its evaluation. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString();
  if ('formula' in value && typeof value.formula === 'string') return `=${value.formula}`;
  if ('sharedFormula' in value) return value.result === undefined ? '' : cellText(value.result);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  if ('error' in value) return value.error;
  return '';
}

async function xlsxRecords(body: Buffer): Promise<{ row: number; values: string[] }[]> {
  checkZipExpansion(body);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([body]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const records: { row: number; values: string[] }[] = [];
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        if (records.length >= MAX_RECORDS) throw fileError(UserImportKeys.tooManyRows);
        const values = (row.values as ExcelJS.CellValue[]).slice(1);
        records.push({ row: row.number, values: Array.from(values, (v) => cellText(v ?? null)) });
      }
      // The first sheet only: the others (notes, lists) are not read.
      break;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError(UserImportKeys.fileUnreadable);
  }
  return records;
}
