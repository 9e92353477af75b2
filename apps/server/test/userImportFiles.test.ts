// postgres: imports written in transactions through the API.
import { randomBytes } from 'node:crypto';
import { USER_IMPORT_LANGS, UserImportLimits } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { USER_IMPORT_CODES, importMessage } from '../src/modules/userinfo/importMessages.js';
import { expectFailure } from './helper.js';
import { countRows, tenant, uniquePhone, type Tenant } from './directoryFixtures.js';
import { csv, upload, xlsx, zipBomb } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();
let a: Tenant;

beforeAll(async () => {
  a = await tenant(t);
});

async function refused(content: Buffer | string, key: string, fileName = 'users.csv') {
  const res = await upload(a.api, content, 'skipInvalid=true', { fileName });
  const body = expectFailure(res, 400, 4000, key);
  expect(body.Data).toEqual([{ field: 'file', key }]);
  expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
}

const row = () => ({ UserName: `u ${uniquePhone()}`, MobilePhone: uniquePhone(), Password: 'term-123' });

describe('POST /api/UserInfo/Import: bad files are refused whole and change nothing', () => {
  it('a file neither CSV nor XLSX (a PDF, a PNG) is userImport.file_type', async () => {
    await refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2000)]), 'userImport.file_type', 'a.pdf');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await refused(png, 'userImport.file_type', 'a.png');
  });

  it('binary junk is userImport.file_type; a zip that is not a workbook is userImport.file_unreadable', async () => {
    await refused(randomBytes(4096), 'userImport.file_type');
    await refused(
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(500)]),
      'userImport.file_unreadable',
      'x.xlsx',
    );
  });

  it('a zip bomb (a small xlsx whose sheet XML expands past the limit) is refused before it is inflated', async () => {
    const bomb = zipBomb(UserImportLimits.maxUncompressedBytes + 1024);
    expect(bomb.length).toBeLessThan(UserImportLimits.maxUncompressedBytes / 100);
    await refused(bomb, 'userImport.zip_bomb', 'bomb.xlsx');
  });

  it('20,001 data rows are userImport.too_many_rows (CSV and XLSX)', async () => {
    const header = 'UserName,MobilePhone\r\n';
    const lines = Array.from({ length: UserImportLimits.maxRows + 1 }, (_, i) => `n${i},${13000000000 + i}`).join(
      '\r\n',
    );
    await refused(header + lines, 'userImport.too_many_rows');
    const book = await xlsx([
      ['UserName', 'MobilePhone'],
      ...Array.from({ length: UserImportLimits.maxRows + 1 }, (_, i) => [`n${i}`, `${13000000000 + i}`]),
    ]);
    await refused(book, 'userImport.too_many_rows', 'big.xlsx');
  });

  it('a header without MobilePhone, an empty file, a file without data rows, a body without a file part', async () => {
    await refused('UserName,Password\r\nAlice,term-123\r\n', 'userImport.header_missing');
    await refused('', 'userImport.empty');
    await refused('\uFEFFMobilePhone\r\n\r\n,\r\n', 'userImport.empty');
    const res = await upload(a.api, csv([row()]), '', { field: 'other' });
    expectFailure(res, 400, 4000, 'userImport.file_missing');
  });

  it('a file over 10 MB is userImport.file_too_large', async () => {
    const big = Buffer.alloc(UserImportLimits.maxBytes + 1, 0x41);
    await refused(big, 'userImport.file_too_large');
    const huge = Buffer.alloc(UserImportLimits.maxBytes + 200 * 1024, 0x41);
    await refused(huge, 'userImport.file_too_large');
  });

  it('invalid query values are 4000 and write nothing', async () => {
    const res = await upload(a.api, csv([row()]), 'dryRun=maybe');
    expectFailure(res, 400, 4000);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it('a CSV that is not UTF-8 (Latin-1) is userImport.file_type', async () => {
    await refused(Buffer.from('UserName,MobilePhone\r\nJos\xe9,13800000009\r\n', 'latin1'), 'userImport.file_type');
  });
});

describe('import messages', () => {
  it('every code has a text of its own in each of the four languages', () => {
    for (const code of USER_IMPORT_CODES) {
      const texts = USER_IMPORT_LANGS.map((lang) => importMessage(lang, code));
      for (const text of texts) expect(text).not.toBe(code);
      expect(new Set(texts).size, code).toBe(4);
    }
  });
});
