import type { UploadImageResult } from '@intercom/contract';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectFailure, expectSuccess, sysLogOf } from './helper.js';
import { colleague, data, org, type Org } from './channelFixtures.js';
import { jpeg, png, webpExtended, webpLossless, webpLossy } from './mediaFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();
let mediaDir: string;

beforeAll(() => {
  mediaDir = path.join(t.deps.config.dataDir, 'media');
});

function upload(
  who: Org,
  query: Record<string, string>,
  body: Buffer | string,
  contentType = 'application/octet-stream',
) {
  return who.api.inject({
    method: 'POST',
    url: `/api/Media/UploadImage?${new URLSearchParams(query)}`,
    headers: { 'content-type': contentType },
    payload: body,
  });
}

function stored(): string[] {
  return fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir).sort() : [];
}

async function subject(who: Org) {
  const entries = expectSuccess(await who.api.get('/api/Account/SysConfig')).Data as { Code: string; Value: string }[];
  const value = (code: string) => entries.find((e) => e.Code === code)?.Value;
  return { SubjectBg: value('SubjectBg'), SubjectLogo: value('SubjectLogo') };
}

describe('POST /api/Media/UploadImage', () => {
  it('stores a 592x77 PNG background under a generated name, sets SubjectBg, logs it, and serves it without a token', async () => {
    const a = await org(t);
    const image = png(592, 77);
    const result = data<UploadImageResult>(
      await upload(a, { fileName: 'my background.png', kind: 'bg' }, image, 'image/png'),
    );
    expect(result).toMatchObject({ Code: 'SubjectBg', format: 'png', width: 592, height: 77, size: image.length });
    expect(result.Value).toMatch(/^bg-[0-9a-f]{32}\.png$/);
    expect(result.url).toBe(`/api/Media/Image/${result.Value}`);
    expect(stored()).toContain(result.Value);
    expect(await subject(a)).toMatchObject({ SubjectBg: result.Value });
    const served = await call(t.app, { method: 'GET', url: result.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(image)).toBe(true);
    const log = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'subject_image');
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]?.Summary ?? '{}')).toMatchObject({
      before: '',
      after: result.Value,
      fileName: 'my background.png',
    });
  });

  it('accepts a 304x31 logo as JPEG or WebP (lossy, lossless, extended), stored with the extension of its content', async () => {
    const a = await org(t);
    const cases: [Buffer, string, string][] = [
      [jpeg(304, 31), 'jpeg', 'jpg'],
      [webpLossless(304, 31), 'webp', 'webp'],
      [webpLossy(304, 31), 'webp', 'webp'],
      [webpExtended(304, 31), 'webp', 'webp'],
    ];
    for (const [bytes, format, ext] of cases) {
      const result = data<UploadImageResult>(
        await upload(a, { fileName: `logo.${ext}`, kind: 'logo' }, bytes, `image/${format}`),
      );
      expect(result).toMatchObject({ Code: 'SubjectLogo', format, width: 304, height: 31 });
      expect(result.Value).toMatch(new RegExp(`^logo-[0-9a-f]{32}\\.${ext}$`));
      const served = await call(t.app, { method: 'GET', url: result.url });
      expect(served.headers['content-type']).toBe(`image/${format}`);
    }
  });

  it('accepts a PNG named .jpg by its content and stores it as .png', async () => {
    const a = await org(t);
    const result = data<UploadImageResult>(
      await upload(a, { fileName: 'logo.jpg', kind: 'logo' }, png(304, 31), 'image/jpeg'),
    );
    expect(result.format).toBe('png');
    expect(result.Value).toMatch(/\.png$/);
    const served = await call(t.app, { method: 'GET', url: result.url });
    expect(served.headers['content-type']).toBe('image/png');
  });

  it('replacing an image removes the old file once nothing names it', async () => {
    const a = await org(t);
    const first = data<UploadImageResult>(await upload(a, { fileName: 'a.png', kind: 'logo' }, png(304, 31)));
    const second = data<UploadImageResult>(await upload(a, { fileName: 'b.png', kind: 'logo' }, png(304, 31)));
    expect(stored()).toContain(second.Value);
    expect(stored()).not.toContain(first.Value);
    expectFailure(await call(t.app, { method: 'GET', url: first.url }), 404, 4004);
  });

  describe('refuses, with a clear key, storing nothing and changing no setting', () => {
    let a: Org;
    let before: string[];
    let settings: Awaited<ReturnType<typeof subject>>;
    beforeAll(async () => {
      a = await org(t);
      data(await upload(a, { fileName: 'bg.png', kind: 'bg' }, png(592, 77)));
      before = stored();
      settings = await subject(a);
    });

    const refusals: [string, Record<string, string>, () => Buffer | string, string, string?][] = [
      [
        'a background of the wrong size (593x77)',
        { fileName: 'bg.png', kind: 'bg' },
        () => png(593, 77),
        'media.wrong_size',
      ],
      ['a logo sent as the background', { fileName: 'logo.png', kind: 'bg' }, () => png(304, 31), 'media.wrong_size'],
      [
        'a background sent as the logo (JPEG)',
        { fileName: 'bg.jpg', kind: 'logo' },
        () => jpeg(592, 77),
        'media.wrong_size',
      ],
      [
        'a GIF',
        { fileName: 'bg.gif', kind: 'bg' },
        () => Buffer.from('GIF89a\u0050\u0002\u004d\u0000', 'latin1'),
        'media.bad_format',
      ],
      [
        'an HTML file named .png',
        { fileName: 'bg.png', kind: 'bg' },
        () => '<html><script>alert(1)</script></html>',
        'media.bad_format',
      ],
      [
        'an SVG file named .png',
        { fileName: 'bg.png', kind: 'bg' },
        () => '<svg xmlns="http://www.w3.org/2000/svg" width="592" height="77"><script>alert(1)</script></svg>',
        'media.bad_format',
        'image/png',
      ],
      [
        'an SVG sent as image/svg+xml',
        { fileName: 'bg.svg', kind: 'bg' },
        () => '<svg/>',
        'media.bad_format',
        'image/svg+xml',
      ],
      ['a truncated PNG', { fileName: 'bg.png', kind: 'bg' }, () => png(592, 77).subarray(0, 20), 'media.bad_format'],
      ['an empty body', { fileName: 'bg.png', kind: 'bg' }, () => Buffer.alloc(0), 'media.bad_format'],
      [
        'an oversize file (600 KB)',
        { fileName: 'bg.png', kind: 'bg' },
        () => Buffer.concat([png(592, 77), Buffer.alloc(600 * 1024)]),
        'media.too_large',
      ],
      [
        'a path in fileName (../)',
        { fileName: '../../etc/bg.png', kind: 'bg' },
        () => png(592, 77),
        'media.bad_file_name',
      ],
      ['a path in fileName (/)', { fileName: 'dir/bg.png', kind: 'bg' }, () => png(592, 77), 'media.bad_file_name'],
      ['a path in fileName (\\)', { fileName: 'C:\\bg.png', kind: 'bg' }, () => png(592, 77), 'media.bad_file_name'],
      ['no fileName', { kind: 'bg' }, () => png(592, 77), 'validation.required'],
      ['an unknown kind', { fileName: 'bg.png', kind: 'banner' }, () => png(592, 77), 'media.bad_kind'],
      ['no kind', { fileName: 'bg.png' }, () => png(592, 77), 'media.bad_kind'],
    ];

    it.each(refusals)('%s', async (_name, query, body, key, contentType) => {
      const res = await upload(a, query, body(), contentType);
      const failure = expectFailure(res, 400, 4000, key);
      expect(failure.Data?.[0]).toMatchObject({ key });
      expect(stored()).toEqual(before);
      expect(await subject(a)).toEqual(settings);
    });

    it('says which size it got and which it needs', async () => {
      const res = await upload(a, { fileName: 'bg.png', kind: 'bg' }, png(600, 80));
      expect(expectFailure(res, 400, 4000, 'media.wrong_size').BaseResult.Params).toEqual({
        width: 600,
        height: 80,
        expectedWidth: 592,
        expectedHeight: 77,
      });
      const big = await upload(a, { fileName: 'bg.png', kind: 'bg' }, Buffer.alloc(513 * 1024));
      expect(expectFailure(big, 400, 4000, 'media.too_large').BaseResult.Params).toEqual({ maxKB: 512 });
    });

    it('a JSON or form body is not an image', async () => {
      const json = await a.api.inject({
        method: 'POST',
        url: '/api/Media/UploadImage?fileName=bg.png&kind=bg',
        payload: { image: 'x' },
      });
      expectFailure(json, 400, 4000, 'media.bad_format');
      expect(stored()).toEqual(before);
    });

    it('an editor is refused (4003), as with every admin-only setting', async () => {
      const editor = await colleague(t, a, 'editor');
      expectFailure(
        await upload(editor, { fileName: 'bg.png', kind: 'bg' }, png(592, 77)),
        403,
        4003,
        'error.forbidden',
      );
      expectFailure(
        await editor.api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: 'NONE' }),
        403,
        4003,
      );
      expectFailure(
        await editor.api.post('/api/Account/ModifyConfig', { scCode: 'VideoEnable', scValue: 'TRUE' }),
        403,
        4003,
      );
      expect(await subject(editor)).toEqual(settings);
      expect(stored()).toEqual(before);
    });

    it('without a token the upload is 401 and nothing is read', async () => {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/Media/UploadImage?fileName=bg.png&kind=bg',
        headers: { 'content-type': 'image/png' },
        payload: png(592, 77),
      });
      expectFailure(res, 401, 50008);
      expect(stored()).toEqual(before);
    });
  });
});

describe('GET /api/Media/Image/{name}', () => {
  it('serves only generated names that exist; anything else is 404', async () => {
    fs.mkdirSync(mediaDir, { recursive: true });
    fs.writeFileSync(path.join(mediaDir, 'notes.txt'), 'secret');
    for (const name of [
      'notes.txt',
      '..%2Fmedia%2Fnotes.txt',
      `bg-${'0'.repeat(32)}.png`,
      'bg-XYZ.png',
      `bg-${'a'.repeat(32)}.svg`,
    ]) {
      expectFailure(await call(t.app, { method: 'GET', url: `/api/Media/Image/${name}` }), 404, 4004);
    }
  });
});
