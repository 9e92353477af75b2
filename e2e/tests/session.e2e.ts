import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials, endSessionsOf, seedAccount } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import {
  clickWhenStill,
  hamburger,
  logIn,
  menuEntry,
  open,
  openSignedIn,
  sidebar,
  userMenu,
  waitForDashboard,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

function reloginDialog(page: Page) {
  return page.getByRole('dialog', { name: en('session.relogin_title') });
}

/**
 * Asks the server for fresh statistics, as a person pressing Refresh on the dashboard. The live
 * connection may notice an ended session first (the hub checks sessions every few seconds and then
 * asks the API, as any request would): then the re-login dialog is up already and covers the button.
 */
async function refreshDashboard(page: Page): Promise<void> {
  const answered = page
    .waitForResponse((response) => response.url().includes('/api/Enterprise/Statistics'))
    .catch(() => undefined);
  try {
    await page.getByRole('button', { name: en('common.refresh') }).click({ timeout: 5000 });
  } catch (error) {
    if (await reloginDialog(page).isVisible()) return;
    throw error;
  }
  await answered;
}

/** The re-login dialog with one of these messages (whichever path told the console first). */
async function expectReloginDialog(page: Page, ...messageKeys: string[]): Promise<void> {
  const dialog = reloginDialog(page);
  await dialog.waitFor();
  await expect
    .poll(async () => {
      const text = await dialog.innerText();
      return messageKeys.some((key) => text.includes(en(key)));
    })
    .toBe(true);
}

describe('ended sessions', () => {
  test('a second login elsewhere makes the first tab offer the re-login on its next request (50012)', async () => {
    const admin = adminCredentials();
    const first = await browser.newPage();
    await openSignedIn(first, admin);
    await waitForDashboard(first);

    // Another browser (its own cookies) signs in to the same account.
    const elsewhere = await browser.newPage();
    await logIn(elsewhere, admin);

    await refreshDashboard(first);
    await expectReloginDialog(first, 'error.session_replaced');
    await shot(first, 'relogin-dialog');

    // Cancel closes it; the next request brings it back.
    const dialog = reloginDialog(first);
    await clickWhenStill(dialog.getByRole('button', { name: en('common.cancel') }));
    await dialog.waitFor({ state: 'hidden' });
    await clickWhenStill(menuEntry(sidebar(first), en('route.system')));
    await clickWhenStill(menuEntry(sidebar(first), en('route.syslog')));
    await dialog.waitFor();

    // Re-Login forgets the token and reloads: the guard asks for a login with the way back.
    await clickWhenStill(dialog.getByRole('button', { name: en('session.relogin') }));
    await waitForPath(first, '/login', '/System/syslog');
    expect((await first.context().cookies()).some((c) => c.name === 'function_access_token')).toBe(false);

    // The other browser keeps its session.
    await refreshDashboard(elsewhere);
    await hamburger(elsewhere).waitFor();
    expect(await reloginDialog(elsewhere).count()).toBe(0);
  });

  test('a second login elsewhere reaches an idle tab through the live connection, without a request', async () => {
    const account = await seedAccount({ login: 'e2e_idle_tab', password: 'Idle-Tab-2026' });
    const idle = await browser.newPage();
    await openSignedIn(idle, account);
    await waitForDashboard(idle);
    const elsewhere = await browser.newPage();
    await logIn(elsewhere, account);
    // Nobody touches the idle tab: the hub closes its connection and the console asks the API why.
    const dialog = reloginDialog(idle);
    await dialog.waitFor({ timeout: 20_000 });
    await expect.poll(() => dialog.innerText()).toContain(en('error.session_replaced'));
  });

  test('a logout in another tab makes this tab offer the re-login on its next request (50008)', async () => {
    const account = await seedAccount({ login: 'e2e_tabs', password: 'Two-Tabs-2026' });
    const tab = await browser.newPage();
    await openSignedIn(tab, account);
    await waitForDashboard(tab);
    // A second tab shares the cookie: it is signed in at once.
    const other = await tab.context().newPage();
    await open(other, '/');
    await hamburger(other).waitFor();
    await userMenu(other, en('layout.logout'));
    await waitForPath(other, '/login');

    // The next request finds no token (50008); the live connection, closed by the logout, may tell
    // first that the session has ended (1001). Either way the tab offers the re-login.
    await refreshDashboard(tab);
    await expectReloginDialog(tab, 'error.token_missing', 'error.session_ended');
  });

  test.each([
    { how: 'frozen', code: 1001, messageKey: 'error.session_ended' },
    { how: 'expired', code: 50014, messageKey: 'error.token_expired' },
  ] as const)('a session the server ended ($how, $code) shows the re-login dialog', async ({ how, messageKey }) => {
    const account = await seedAccount({ login: `e2e_${how}`, password: 'Server-Ends-26' });
    const page = await browser.newPage();
    await openSignedIn(page, account);
    await waitForDashboard(page);
    expect(endSessionsOf(account.account, how)).toBe(1);

    await refreshDashboard(page);
    await expectReloginDialog(page, messageKey);
  });
});
