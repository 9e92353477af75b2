import zlib from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { adminCredentials, seedAccount } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import {
  clickWhenStill,
  menuEntry,
  nameEndingWith,
  open,
  openSignedIn,
  sidebar,
  toast,
  waitForPath,
} from '../support/console.js';
import { en, text } from '../support/texts.js';

const browser = useBrowserPerFile();
const stamp = String(Date.now()).slice(-6);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of the given size (orange mark at the left, blue stripes), made in memory. */
function makePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Array.from({ length: height }, (_, y) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const colour = x < height ? [230, 120, 20] : y % 10 < 5 ? [255, 255, 255] : [60, 160, 255];
      row.set(colour, 1 + x * 3);
    }
    return row;
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Chooses a file for an upload button the way a person does: through the file chooser. */
async function chooseFile(page: Page, button: Locator, name: string, buffer: Buffer): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer });
}

/** The bytes the server serves at an image's address. */
async function served(src: string): Promise<Buffer> {
  const response = await fetch(new URL(src, inject('baseUrl')));
  expect(response.headers.get('content-type')).toBe('image/png');
  return Buffer.from(await response.arrayBuffer());
}

async function openTab(page: Page, tab: 'base' | 'gps' | 'types' | 'images'): Promise<void> {
  await open(page, tab === 'images' ? '/System/subject' : `/System/subject?tab=${tab}`);
  await page.getByRole('tab', { name: en(`settings.tab_${tab}`), selected: true }).waitFor();
}

async function confirmDialog(page: Page, okText: string): Promise<void> {
  await clickWhenStill(page.getByRole('dialog').getByRole('button', { name: nameEndingWith(okText) }));
}

/** Picks an option of the map select and saves the base settings (the caller waits for the effect). */
async function saveMapChoice(page: Page, labelKey: string): Promise<void> {
  await page.getByLabel(en('settings.map'), { exact: true }).click();
  await clickWhenStill(page.locator('.ant-select-dropdown').getByTitle(en(labelKey), { exact: true }));
  await page.getByRole('button', { name: nameEndingWith(en('common.save')) }).click();
}

describe('theme and base settings', () => {
  test('a wrong-size logo is refused with its sizes; a 304x31 logo shows in the sidebar and on the login page', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/subject');
    const card = page.getByTestId('subject-logo');
    const upload = card.getByRole('button', { name: nameEndingWith(en('settings.upload')) });

    await chooseFile(page, upload, 'banner.png', makePng(592, 77));
    await expect
      .poll(() => card.getByRole('alert').textContent())
      .toBe(en('media.wrong_size', { width: 592, height: 77, expectedWidth: 304, expectedHeight: 31 }));

    const logo = makePng(304, 31);
    await chooseFile(page, upload, 'logo.png', logo);
    await toast(page, en('common.oper_success')).waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);

    // The sidebar changes without a reload, and its image is the file that was sent.
    const brand = sidebar(page).getByRole('img', { name: en('app.short_title') });
    await expect.poll(() => brand.getAttribute('src')).toMatch(/^\/api\/Media\/Image\/logo-[0-9a-f]{32}\.png$/);
    const src = (await brand.getAttribute('src')) ?? '';
    expect((await served(src)).equals(logo)).toBe(true);
    await expect.poll(() => brand.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(304);
    await card.getByRole('img', { name: en('settings.current_image', { name: en('settings.logo_title') }) }).waitFor();

    // Signed out, the login page shows the same logo (remembered from the last visit).
    await page.context().clearCookies();
    await open(page, '/login');
    const loginLogo = page.getByRole('img', { name: en('app.title') });
    await expect.poll(() => loginLogo.getAttribute('src')).toBe(src);

    // Back to the built-in look, so the other files of the run see the default brand.
    await openSignedIn(page, adminCredentials(), '/System/subject');
    await card.getByRole('button', { name: nameEndingWith(en('settings.restore')) }).click();
    await confirmDialog(page, en('settings.restore'));
    await card.getByText(en('settings.builtin_in_use'), { exact: true }).waitFor();
    await sidebar(page).getByText(en('app.short_title'), { exact: true }).waitFor();
  });

  test('the map choice NONE takes the live map out of the menu at once; a map choice brings it back', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/subject?tab=base');
    await menuEntry(sidebar(page), en('route.map')).waitFor();
    try {
      await saveMapChoice(page, 'settings.map_none');
      await expect.poll(() => menuEntry(sidebar(page), en('route.map')).count()).toBe(0);
      await page.getByTestId('settings-in-force').getByText(en('settings.map_hidden_note'), { exact: true }).waitFor();

      await saveMapChoice(page, 'settings.map_osm');
      await menuEntry(sidebar(page), en('route.map')).waitFor();
      await page.getByTestId('settings-in-force').getByText(en('settings.map_osm'), { exact: true }).waitFor();
    } finally {
      const answer = await callApi(await tokenOf(page), 'POST', '/api/Account/ModifyConfig', {
        scCode: 'DefaultMap',
        scValue: 'OFFLINE',
      });
      expect(answer.body.BaseResult.Code).toBe(8888);
    }
  });

  test('the push-to-talk limits: out of range is refused under the field, a valid value is in force', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/subject?tab=base');
    const talkTime = page.getByLabel(en('settings.talk_max_seconds'), { exact: true });
    const priority = page.getByLabel(en('settings.dispatch_priority'), { exact: true });
    const save = page.getByRole('button', { name: nameEndingWith(en('common.save')) });
    try {
      await talkTime.fill('');
      await priority.fill('');
      await save.click();
      await page.getByText(en('settings.talk_max_seconds_invalid'), { exact: true }).waitFor();
      await page.getByText(en('settings.dispatch_priority_invalid'), { exact: true }).waitFor();
      await shot(page, 'settings-talk-invalid-en');

      await talkTime.fill('90');
      await priority.fill('6');
      await save.click();
      await toast(page, en('common.oper_success')).waitFor();
      const inForce = page.getByTestId('settings-in-force');
      await inForce.getByText(en('settings.seconds_value', { value: 90 }), { exact: true }).waitFor();
      await expect.poll(() => inForce.textContent()).toContain(`${en('settings.dispatch_priority')}6`);
      const config = await callApi(await tokenOf(page), 'GET', '/api/Account/SysConfig');
      const entries = config.body.Data as { Code: string; Value: string }[];
      expect(entries.filter((e) => e.Code === 'TalkMaxSeconds' || e.Code === 'DispatchPriority')).toEqual(
        expect.arrayContaining([
          { Code: 'TalkMaxSeconds', Value: '90' },
          { Code: 'DispatchPriority', Value: '6' },
        ]),
      );
    } finally {
      const token = await tokenOf(page);
      for (const [scCode, scValue] of [
        ['TalkMaxSeconds', '60'],
        ['DispatchPriority', '7'],
      ] as const) {
        const answer = await callApi(token, 'POST', '/api/Account/ModifyConfig', { scCode, scValue });
        expect(answer.body.BaseResult.Code).toBe(8888);
      }
    }
    // The same fields on a phone, in Chinese.
    const phone = await browser.newPage({ locale: 'zh-CN', width: 390, height: 844 });
    await openSignedIn(phone, adminCredentials(), '/System/subject?tab=base', 'zh');
    await phone.getByLabel(text('zh', 'settings.talk_max_seconds'), { exact: true }).fill('');
    await phone.getByRole('button', { name: nameEndingWith(text('zh', 'common.save')) }).click();
    await phone.getByText(text('zh', 'settings.talk_max_seconds_invalid'), { exact: true }).waitFor();
    await shot(phone, 'settings-talk-zh-mobile');
  });

  test('a new location profile is listed and made the current one', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    await openTab(page, 'gps');
    const panel = page.getByTestId('location-profiles');
    const name = `Patrol ${stamp}`;

    await panel.getByRole('button', { name: nameEndingWith(en('settings.profile_create')) }).click();
    const drawer = page.getByTestId('profile-drawer');
    await drawer.getByLabel(en('settings.profile_name'), { exact: true }).fill(name);
    await drawer.getByLabel(en('settings.mode_both')).check();
    await drawer.getByLabel(en('settings.interval'), { exact: true }).fill('');
    await drawer.getByLabel(en('settings.distance'), { exact: true }).fill('50');
    await clickWhenStill(drawer.getByRole('button', { name: nameEndingWith(en('common.save')) }));
    await drawer.getByText(en('settings.interval_range'), { exact: true }).waitFor();
    await drawer.getByLabel(en('settings.interval'), { exact: true }).fill('30');
    await clickWhenStill(drawer.getByRole('button', { name: nameEndingWith(en('common.save')) }));

    const row = panel.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(en('settings.mode_both'));
    expect(await row.getByText(en('settings.current'), { exact: true }).count()).toBe(0);

    await row.getByRole('button', { name: nameEndingWith(en('settings.make_current')) }).click();
    await confirmDialog(page, en('common.confirm'));
    await row.getByText(en('settings.current'), { exact: true }).waitFor();
    const rule = en('settings.describe_both', { interval: 30, distance: 50 });
    await expect
      .poll(() => page.getByTestId('location-in-force').textContent())
      .toBe(en('settings.reporting_with', { name, rule }));
    // The current profile cannot be deleted.
    expect(await row.getByRole('button', { name: en('settings.delete_named', { name }) }).isDisabled()).toBe(true);
  });

  test('an editor cannot open the theme settings nor upload', async () => {
    const editor = await seedAccount({ login: `sys_editor_${stamp}`, password: 'Editor-Pass-2026!', role: 'editor' });
    const page = await browser.newPage();
    await openSignedIn(page, editor);
    expect(await menuEntry(sidebar(page), en('route.subject')).count()).toBe(0);
    await open(page, '/System/subject');
    await waitForPath(page, '/404');
    await page.getByText(en('error.page_not_found')).waitFor();
    expect(await page.getByText(en('settings.tab_images'), { exact: true }).count()).toBe(0);

    const answer = await callApi(await tokenOf(page), 'POST', '/api/Media/UploadImage', {
      fileName: 'logo.png',
      kind: 'logo',
    });
    expect(answer.status).toBe(403);
  });
});
