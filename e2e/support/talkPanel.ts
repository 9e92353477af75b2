import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { text, type Language } from './texts.js';

/** Group call from the channel tree: the talk panel then shows `channel` as current, its floor idle. */
export async function groupCallFromTree(
  page: Page,
  panel: Locator,
  cid: number,
  channel: string,
  language: Language = 'en',
): Promise<void> {
  await page.getByRole('button', { name: `${text(language, 'talk.group_call')} ${channel}` }).click();
  await panel.getByTestId('talk-current').getByText(channel).waitFor();
  await panel.getByTestId(`talk-floor-${cid}`).getByText(text(language, 'talk.status.idle')).waitFor();
}

/** Opens the talk panel and takes the browser seat (no agent runs in the tests); returns the panel. */
export async function takeBrowserSeat(page: Page, language: Language = 'en'): Promise<Locator> {
  await page.getByTestId('talk-toggle').click();
  const panel = page.getByTestId('talk-panel').first();
  // No agent on 127.0.0.1:12002: the panel says so and offers browser talk.
  await panel.getByText(text(language, 'talk.no_agent')).waitFor();
  await panel.getByTestId('talk-use-browser').click();
  await page.getByText(text(language, 'talk.status.login_success')).first().waitFor();
  return panel;
}

/** On a phone the talk panel is a drawer over the page: closes it so what is under it is in reach. */
export async function closeTalkDrawer(page: Page): Promise<void> {
  const drawer = page.getByTestId('talk-drawer');
  if (!(await drawer.isVisible())) return;
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('talk-ptt').isVisible()).toBe(false);
}

/** Takes the browser seat and joins `channel` from the tree (the call reopens a closed drawer). */
export async function browserSeatOn(page: Page, cid: number, channel: string, language: Language = 'en') {
  const panel = await takeBrowserSeat(page, language);
  await closeTalkDrawer(page);
  await groupCallFromTree(page, panel, cid, channel, language);
  return panel;
}
