import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { SIM_VIDEO_CHANNEL } from '../../apps/simulator/src/adminApi.js';
import { callApi } from './apiLogin.js';
import { shot } from './browser.js';
import { text, type Language } from './texts.js';

/** Pictures the Video page has decoded for the user's stream. */
export async function decodedPictures(page: Page, uid: number): Promise<number> {
  return Number(await page.getByTestId(`video-canvas-${uid}`).getAttribute('data-decoded'));
}

/**
 * What a user does on /main/video with no talk seat yet (no local agent runs here): the page says
 * the talk account is not logged in and offers the intercom-account login, which takes the browser
 * seat; the seat's video list then fills.
 */
export async function logInVideoSeat(page: Page, language: Language, screenshot?: string): Promise<void> {
  const notice = page.getByTestId('video-not-logged-in');
  await notice.getByText(text(language, 'talk.status.not_logged_in')).waitFor();
  if (screenshot) await shot(page, screenshot);
  await notice.getByRole('button', { name: text(language, 'talk.login') }).click();
  const dialog = page.getByRole('dialog', { name: text(language, 'talk.account_title') });
  await dialog.getByTestId('talk-login').click();
  await page.getByText(text(language, 'talk.status.login_success')).first().waitFor();
  await expect.poll(() => notice.count()).toBe(0);
  await expect.poll(() => dialog.count()).toBe(0);
  // The login's messages fade before the screenshots, which they would cover.
  await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 15_000 }).toBe(0);
}

/** Leaves the enterprise as the other files expect it: video off, no test video channel. */
export async function withdrawVideoRights(token: string): Promise<void> {
  const { body } = await callApi(token, 'GET', '/api/THChannel/QueryChannel', { search: SIM_VIDEO_CHANNEL });
  for (const channel of (body.Data as { CID: number; CName: string }[] | undefined) ?? []) {
    if (channel.CName !== SIM_VIDEO_CHANNEL) continue;
    const url = new URL('/api/THChannel/DeleteChannel', inject('baseUrl'));
    url.searchParams.set('cid', String(channel.CID));
    await fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  }
  await callApi(token, 'POST', '/api/Account/ModifyConfig', { scCode: 'VideoEnable', scValue: 'FALSE' });
}
