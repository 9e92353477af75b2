import { deflateRawSync, crc32 } from 'node:zlib';
import type { UserImportReport } from '@intercom/contract';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import type { Api } from './directoryFixtures.js';
import { expectSuccess } from './helper.js';

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

export const HEADER = [
  'UserName',
  'MobilePhone',
  'Password',
  'ICCID',
  'Department',
  'UserType',
  'Channels',
  'Priority',
  'Remark',
];

export type Cells = Partial<Record<(typeof HEADER)[number], string>>;

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
  const compressed = deflateRawSync(data, { level: 9 });
  const crc = crc32(data);
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(name.length, 28);
  const cdOffset = local.length + name.length + compressed.length;
  const cdSize = central.length + name.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, name, compressed, central, name, end]);
}
