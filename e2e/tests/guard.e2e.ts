import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { useBrowserPerFile } from '../support/browser.js';
import {
  DASHBOARD_PATH,
  expectRouteTitle,
  hamburger,
  loginButton,
  open,
  openSignedIn,
  submitLogin,
  urlOf,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

describe('access guard', () => {
  test.each([
    { wanted: '/System/syslog', title: 'route.syslog' },
    { wanted: '/Managent/User', title: 'route.users' },
  ])(
    '$wanted without a token goes to /login with the way back, and the login returns there',
    async ({ wanted, title }) => {
      const page = await browser.newPage();
      await open(page, wanted);
      await waitForPath(page, '/login', wanted);
      await loginButton(page).waitFor();

      await submitLogin(page, adminCredentials());
      await waitForPath(page, wanted);
      await expectRouteTitle(page, title);
    },
  );

  test('an unknown path without a token also goes to /login first', async () => {
    const page = await browser.newPage();
    await open(page, '/no/such/page');
    await waitForPath(page, '/login', '/no/such/page');
    await loginButton(page).waitFor();
  });

  test('a redirect to another site is ignored: the login lands on the dashboard', async () => {
    const page = await browser.newPage();
    await open(page, `/login?redirect=${encodeURIComponent('//example.com/steal')}`);
    await submitLogin(page, adminCredentials());
    await waitForPath(page, DASHBOARD_PATH);
    expect(new URL(page.url()).origin).toBe(new URL(urlOf('/')).origin);
  });

  test('signed in, /login goes to the dashboard and an unknown path to /404', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());

    await open(page, '/login');
    await waitForPath(page, DASHBOARD_PATH);
    await hamburger(page).waitFor();
    expect(await loginButton(page).count()).toBe(0);

    await open(page, '/no/such/page');
    await waitForPath(page, '/404');
    await page.getByText(en('error.page_not_found'), { exact: true }).waitFor();
    await page.getByRole('button', { name: en('common.back_home') }).click();
    await waitForPath(page, DASHBOARD_PATH);
  });
});
