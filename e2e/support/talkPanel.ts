import type { Locator, Page } from 'playwright-core';
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
