import { USER_IMPORT_COLUMNS, type UserImportReport } from '@intercom/contract';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import type { Api } from './directoryFixtures.js';
import { expectSuccess } from './helper.js';
import { MAIN_NS, deflated, workbookParts, zipOf } from './zipWriter.js';

/** Fixtures of the user import tests (issue 33): multipart bodies, CSV and XLSX files, zips. */

const BOUNDARY = '----intercomImportBoundary7MA4YWxk';

/** A multipart/form-data body with one file part (field `file`) and a text field before it. */
export function multipart(content: Buffer | string, fileName = 'users.csv', field = 'file') {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), tail]),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

export function upload(
  api: Api,
  content: Buffer | string,
  query = '',
  options: { fileName?: string; headers?: Record<string, string>; field?: string } = {},
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipart(content, options.fileName, options.field);
  return api.inject({
    method: 'POST',
    url: `/api/UserInfo/Import${query ? `?${query}` : ''}`,
    headers: { 'content-type': contentType, ...options.headers },
    payload,
  });
}

export function report(res: LightMyRequestResponse): UserImportReport {
  return expectSuccess(res).BaseData as UserImportReport;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The template's columns, in its order. */
export const HEADER: string[] = [...USER_IMPORT_COLUMNS];

export type Cells = Partial<Record<string, string>>;

/** A CSV file of these rows under the field-name header (or another header). */
export function csv(rows: Cells[], header: string[] = HEADER, names: string[] = HEADER): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(names.map((h) => csvCell(row[h] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** An XLSX file of these rows; a cell given as `{ formula }` is written as a formula cell. */
export async function xlsx(rows: (string | { formula: string; result?: string })[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Users');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * A small zip (an "xlsx") whose one entry inflates to `size` bytes of XML padding: a few hundred KB
 * on the wire, `size` bytes once expanded. Sizes and CRC are true (a real bomb, not a lying one).
 */
export function zipBomb(size: number): Buffer {
  const open = Buffer.from('<?xml version="1.0"?><worksheet><sheetData>');
  const close = Buffer.from('</sheetData></worksheet>');
  const data = Buffer.alloc(size, 0x20);
  open.copy(data, 0);
  close.copy(data, size - close.length);
  return zipOf([deflated('xl/worksheets/sheet1.xml', data)]);
}

/** The XML of a sheet whose rows are these cells (`{ s: i }` a shared string, text an inline one). */
export function sheetXml(rows: (string | { s: number } | { ref: string; text: string })[][], dimension = ''): string {
  const column = (i: number) => String.fromCharCode(65 + i);
  const cells = (row: (typeof rows)[number], r: number) =>
    row
      .map((cell, i) => {
        if (typeof cell === 'string') return `<c r="${column(i)}${r}" t="inlineStr"><is><t>${cell}</t></is></c>`;
        if ('s' in cell) return `<c r="${column(i)}${r}" t="s"><v>${cell.s}</v></c>`;
        return `<c r="${cell.ref}${r}" t="inlineStr"><is><t>${cell.text}</t></is></c>`;
      })
      .join('');
  const data = rows.map((row, i) => `<row r="${i + 1}">${cells(row, i + 1)}</row>`).join('');
  const dim = dimension ? `<dimension ref="${dimension}"/>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN_NS}">${dim}<sheetData>${data}</sheetData></worksheet>`;
}

/** The XML of a shared-strings part holding these strings. */
export function sharedStringsXml(strings: string[]): string {
  const items = strings.map((s) => `<si><t>${s}</t></si>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN_NS}" count="${strings.length}">${items}</sst>`;
}

/**
 * A workbook of one sheet built by hand (the parts an XLSX reader needs), the sheet before the
 * shared strings in the zip as Excel and exceljs write them. `declared` makes the directory lie
 * about the size of a part.
 */
export function workbookOf(
  sheet: string | Buffer,
  strings?: string | Buffer,
  declared: { sheet?: number; strings?: number } = {},
): Buffer {
  return zipOf([
    ...workbookParts(),
    deflated('xl/worksheets/sheet1.xml', sheet, declared.sheet),
    ...(strings === undefined ? [] : [deflated('xl/sharedStrings.xml', strings, declared.strings)]),
  ]);
}
