import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { useBrowserPerFile } from '../support/browser.js';
import { openSignedIn, toast, waitForDashboard } from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

const STATISTICS = '**/api/Enterprise/Statistics';

/**
 * The dashboard with a controllable clock (time runs normally until a test jumps it ahead) and
 * the statistics call answered by `handler` from now on.
 */
async function dashboardWith(
  handler: (route: Route) => Promise<void> | void,
  { pause = false }: { pause?: boolean } = {},
): Promise<Page> {
  const page = await browser.newPage();
  await page.clock.install();
  await openSignedIn(page, adminCredentials());
  await waitForDashboard(page);
  await page.route(STATISTICS, handler);
  // Paused, the page's time moves only when the test moves it: a loaded machine's slow steps add
  // no seconds of their own to what the test counts.
  if (pause) await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
  await page.getByRole('button', { name: en('common.refresh') }).click();
  return page;
}

describe('failure toasts', () => {
  test('a connection failure shows "Connection to server failed" for 5 seconds', async () => {
    const page = await dashboardWith((route) => route.abort('connectionrefused'));
    const message = toast(page, en('error.network'));
    await message.waitFor();
    await page.clock.runFor(4_000);
    await message.waitFor();
    await page.clock.runFor(1_500);
    await message.waitFor({ state: 'hidden' });
  });

  test('a request left without an answer ends after 10 seconds with the timeout toast', async () => {
    // The request hangs until the test ends.
    const page = await dashboardWith(() => undefined, { pause: true });
    const message = toast(page, en('error.timeout'));
    // Refresh shows its spinner while the request is under way (the query's updates run on timers).
    const spinner = page.getByRole('button', { name: en('common.refresh') }).getByRole('img', { name: 'loading' });
    await page.clock.runFor(100);
    await spinner.waitFor();
    await page.clock.runFor(8_900);
    await spinner.waitFor();
    expect(await message.count()).toBe(0);
    await page.clock.runFor(1_500);
    await page.clock.resume();
    await message.waitFor();
    await spinner.waitFor({ state: 'detached' });
  });

  test('a query the server refuses shows "query error" with the server message', async () => {
    const page = await dashboardWith((route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ BaseResult: { Code: 5000, Message: 'error.internal', RequestId: 'req-e2e-1' } }),
      }),
    );
    await toast(page, en('common.query_error', { message: en('error.internal') })).waitFor();
  });
});
