import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import {
  DASHBOARD_PATH,
  clickWhenStill,
  expectRouteTitle,
  hamburger,
  menuEntry,
  open,
  openSignedIn,
  pickMenuItem,
  sidebar,
  submitLogin,
  userMenu,
  waitForDashboard,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

const SIDEBAR_WIDTH = 210;

describe('layout', () => {
  test('the collapsed sidebar stays collapsed after a reload, and so does the opened one', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    const width = async () => (await sidebar(page).boundingBox())?.width ?? 0;
    const systemLabel = sidebar(page).getByText(en('route.system'), { exact: true });

    await expect.poll(width).toBe(SIDEBAR_WIDTH);
    await systemLabel.waitFor();
    await hamburger(page).click();
    await expect.poll(width).toBeLessThan(100);
    await systemLabel.waitFor({ state: 'hidden' });

    await page.reload();
    await hamburger(page).waitFor();
    await menuEntry(sidebar(page), en('route.dashboard')).waitFor({ state: 'attached' });
    await expect.poll(width).toBeLessThan(100);
    expect(await systemLabel.isVisible()).toBe(false);

    await hamburger(page).click();
    await expect.poll(width).toBe(SIDEBAR_WIDTH);
    await page.reload();
    await hamburger(page).waitFor();
    await systemLabel.waitFor();
    await expect.poll(width).toBe(SIDEBAR_WIDTH);
  });

  test('the chosen component size applies at once and survives a reload', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    await waitForDashboard(page);
    const refresh = page.getByRole('button', { name: en('common.refresh') });
    const height = async () => (await refresh.boundingBox())?.height ?? 0;
    const medium = await height();

    await page.getByRole('button', { name: en('layout.size'), exact: true }).click();
    await pickMenuItem(page, en('layout.size_small'));
    await expect.poll(height).toBeLessThan(medium);

    await page.reload();
    await waitForDashboard(page);
    await expect.poll(height).toBeLessThan(medium);
  });

  test('at 375 px the menu is a drawer: the hamburger opens it and navigating closes it', async () => {
    const page = await browser.newPage({ width: 375, height: 740 });
    await openSignedIn(page, adminCredentials());
    await waitForDashboard(page);
    const syslogEntry = menuEntry(page, en('route.syslog'));
    const systemGroup = menuEntry(page, en('route.system'));
    // No sidebar beside the page: the menu is out of sight until asked for.
    expect(await sidebar(page).count()).toBe(0);
    expect(await systemGroup.isVisible()).toBe(false);
    await shot(page, 'dashboard-mobile');

    await hamburger(page).click();
    await clickWhenStill(systemGroup);
    await clickWhenStill(syslogEntry);
    await waitForPath(page, '/System/syslog');
    await syslogEntry.waitFor({ state: 'hidden' });
    await systemGroup.waitFor({ state: 'hidden' });
    await expectRouteTitle(page, 'route.syslog');

    // Once more from the syslog: back to the dashboard, the drawer closes again.
    await hamburger(page).click();
    await clickWhenStill(menuEntry(page, en('route.dashboard')));
    await waitForPath(page, DASHBOARD_PATH);
    await menuEntry(page, en('route.dashboard')).waitFor({ state: 'hidden' });
  });

  test('log out goes to /login with the way back; logging in again returns to the same page', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/syslog');
    await userMenu(page, en('layout.logout'));
    await waitForPath(page, '/login', '/System/syslog');

    // The session is over in this browser: any signed-in page now asks for the login.
    await open(page, '/');
    await waitForPath(page, '/login');

    await open(page, `/login?redirect=${encodeURIComponent('/System/syslog')}`);
    await submitLogin(page, adminCredentials());
    await waitForPath(page, '/System/syslog');
    // The log shows the logout that just happened, just below this new login.
    const secondRow = page.getByRole('row').nth(2);
    await expect.poll(() => secondRow.innerText()).toContain(`admin\t${en('syslog.action.logout')}`);
  });
});
