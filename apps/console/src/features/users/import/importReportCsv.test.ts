import type { UserImportError } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { formulaSafeCsvCell, importReportCsv } from './importReportCsv';

const texts = {
  header: { row: 'Row', field: 'Field', code: 'Code', message: 'Problem' },
  rowText: (row: number) => (row === 0 ? 'Whole file' : String(row)),
  fieldName: (field: string) => field,
  message: (error: UserImportError) => error.message,
};

describe('import report CSV', () => {
  it('prefixes every cell a spreadsheet would run as a formula', () => {
    expect(formulaSafeCsvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(formulaSafeCsvCell('+1 555')).toBe("'+1 555");
    expect(formulaSafeCsvCell('-2')).toBe("'-2");
    expect(formulaSafeCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(formulaSafeCsvCell('\tx')).toBe("'\tx");
    expect(formulaSafeCsvCell('\rx')).toBe(`"'\rx"`);
  });

  it('leaves plain text and numbers as they are, quoting commas, quotes and line breaks', () => {
    expect(formulaSafeCsvCell('Sales/North')).toBe('Sales/North');
    expect(formulaSafeCsvCell(12)).toBe('12');
    expect(formulaSafeCsvCell('a,b')).toBe('"a,b"');
    expect(formulaSafeCsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(formulaSafeCsvCell('two\nlines')).toBe('"two\nlines"');
    expect(formulaSafeCsvCell('x=1')).toBe('x=1');
  });

  it('writes a header and one line per error, by row, with the messages made safe', () => {
    const errors: UserImportError[] = [
      { row: 7, field: 'Channels', code: 'userImport.channel_unknown', message: 'Unknown channel =cmd|calc' },
      { row: 0, field: 'file', code: 'userImport.quota', message: 'Not enough licences' },
    ];
    expect(importReportCsv(errors, texts)).toBe(
      'Row,Field,Code,Problem\r\n' +
        'Whole file,file,userImport.quota,Not enough licences\r\n' +
        '7,Channels,userImport.channel_unknown,Unknown channel =cmd|calc\r\n',
    );
    const hostile = importReportCsv([{ row: 3, field: 'Remark', code: 'x', message: '=1+1' }], {
      ...texts,
      message: () => '=1+1',
    });
    expect(hostile.split('\r\n')[1]).toBe("3,Remark,x,'=1+1");
  });
});
