import { beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { tenant, type Tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

// POST /api/UserInfo/Import's upload (@fastify/multipart): a body that is no form, or past the
// upload's limits, is a 4000 naming what is wrong, never a 500.
const t = useTestApp();
let a: Tenant;

beforeAll(async () => {
  a = await tenant(t);
});

const BOUNDARY = 'importUploadBoundary';
const part = (name: string, fileName?: string, body = 'MobilePhone\r\n') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}\r\n\r\n${body}\r\n`;
const form = (...parts: string[]) => `${parts.join('')}--${BOUNDARY}--\r\n`;

function post(payload: string, contentType: string | null = `multipart/form-data; boundary=${BOUNDARY}`) {
  return a.api.inject({
    method: 'POST',
    url: '/api/UserInfo/Import?dryRun=true',
    headers: contentType ? { 'content-type': contentType } : {},
    payload,
  });
}

describe('POST /api/UserInfo/Import: the upload', () => {
  it('a body that is not a form is 4000 validation.required on body, as the body schema answered', async () => {
    for (const res of [await post('{"a":1}', 'application/json'), await post('', null)]) {
      const body = expectFailure(res, 400, 4000, 'validation.required');
      expect(body.Data).toEqual([{ field: 'body', key: 'validation.required' }]);
    }
  });

  it('a form without a boundary, cut short or of garbage is userImport.file_missing', async () => {
    await expectMissing(post(form(part('file', 'a.csv')), 'multipart/form-data'));
    await expectMissing(
      post(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nabc`),
    );
    await expectMissing(post('garbage'));
  });

  it('a second file or more fields than a form needs is userImport.file_too_large', async () => {
    const tooLarge = async (payload: string) => {
      const body = expectFailure(await post(payload), 400, 4000, 'userImport.file_too_large');
      expect(body.Data).toEqual([{ field: 'file', key: 'userImport.file_too_large' }]);
    };
    await tooLarge(form(part('file', 'a.csv'), part('other', 'b.csv')));
    await tooLarge(form(...Array.from({ length: 17 }, (_, i) => part(`f${i}`, undefined, 'x')), part('file', 'a.csv')));
  });
});

async function expectMissing(response: ReturnType<typeof post>) {
  const body = expectFailure(await response, 400, 4000, 'userImport.file_missing');
  expect(body.Data).toEqual([{ field: 'file', key: 'userImport.file_missing' }]);
}
