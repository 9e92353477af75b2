import type { UserImportError } from '@intercom/contract';

/** The header texts and the per-error texts of the report, in the reader's language. */
export interface ImportReportTexts {
  header: { row: string; field: string; code: string; message: string };
  rowText: (row: number) => string;
  fieldName: (field: string) => string;
  message: (error: UserImportError) => string;
}

/**
 * One CSV cell a spreadsheet shows as text: a cell starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is prefixed with `'` so Excel or LibreOffice never evaluates it as a formula
 * (a file's own cells come back in the messages), then quoted when it holds a quote, comma or line break.
 */
export function formulaSafeCsvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report of a check or an import as CSV text (row, field, code, message), one line per error. */
export function importReportCsv(errors: readonly UserImportError[], texts: ImportReportTexts): string {
  const { header } = texts;
  const lines = [[header.row, header.field, header.code, header.message]];
  const sorted = [...errors].sort((a, b) => a.row - b.row);
  for (const error of sorted) {
    lines.push([texts.rowText(error.row), texts.fieldName(error.field), error.code, texts.message(error)]);
  }
  return `${lines.map((cells) => cells.map(formulaSafeCsvCell).join(',')).join('\r\n')}\r\n`;
}
