import { USER_IMPORT_COLUMNS, userImportHeaders, type UserImportColumn, type UserImportLang } from '@intercom/contract';
import ExcelJS from 'exceljs';

/** The example row of the template: an empty Password asks the import to generate one. */
const EXAMPLE: Record<UserImportColumn, string> = {
  UserName: 'Alice Example',
  MobilePhone: '13800000001',
  Password: '',
  ICCID: '',
  Department: 'Sales/North',
  UserType: '0',
  Channels: 'Dispatch;Sales',
  Priority: '3',
  Remark: '',
};

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `GET /api/UserInfo/ImportTemplate`: the header row in the reader's language and one example row.
 * CSV is UTF-8 with a BOM (Excel then opens it as UTF-8); in XLSX every column is text, so phones
 * and ICCIDs keep their digits.
 */
export async function importTemplate(format: 'csv' | 'xlsx', lang: UserImportLang): Promise<Buffer> {
  const header = USER_IMPORT_COLUMNS.map((c) => userImportHeaders[lang][c]);
  const example = USER_IMPORT_COLUMNS.map((c) => EXAMPLE[c]);
  if (format === 'csv') {
    return Buffer.from(`\uFEFF${[header, example].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`, 'utf8');
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Users');
  sheet.columns = USER_IMPORT_COLUMNS.map((c, i) => ({
    key: c,
    width: Math.max(14, (header[i] ?? '').length + 4),
    style: { numFmt: '@' },
  }));
  sheet.addRow(header).font = { bold: true };
  sheet.addRow(example);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
