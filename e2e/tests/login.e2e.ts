import { describe, expect, test } from 'vitest';
import { adminCredentials, seedAccount } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import {
  DASHBOARD_PATH,
  addressOf,
  hamburger,
  loginAlert,
  loginButton,
  open,
  openSignedIn,
  submitLogin,
  waitForDashboard,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

describe('login page', () => {
  test('a wrong password shows the server message and stays on /login; the right one opens the dashboard', async () => {
    const page = await browser.newPage();
    await open(page, '/login');
    await page.getByRole('heading', { name: en('app.title') }).waitFor();
    await shot(page, 'login-en');

    const admin = adminCredentials();
    await submitLogin(page, { ...admin, password: `${admin.password}-wrong` });
    await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.wrong_credentials'));
    expect(addressOf(page).pathname).toBe('/login');
    expect(await hamburger(page).count()).toBe(0);

    // The account name is trimmed before it is sent (SPEC.md section 5).
    await submitLogin(page, { ...admin, account: `  ${admin.account}  ` });
    await waitForPath(page, DASHBOARD_PATH);
    await waitForDashboard(page);
    expect(await loginAlert(page).count()).toBe(0);
  });

  test('five wrong passwords lock the account for 15 minutes, even against the right password', async () => {
    const locked = await seedAccount({ login: 'e2e_lock', password: 'Lock-Me-2026!' });
    const page = await browser.newPage();
    await open(page, '/login');
    const wrong = { ...locked, password: 'Not-The-One-1' };
    for (let attempt = 1; attempt <= 4; attempt++) {
      await submitLogin(page, wrong);
      await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.wrong_credentials'));
      // The next submit must produce a fresh answer, not find the old one still shown.
      await page.getByLabel(en('login.password'), { exact: true }).fill('x');
      await loginAlert(page).waitFor({ state: 'detached' });
    }
    await submitLogin(page, wrong);
    await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.locked', { minutes: 15 }));

    await page.getByLabel(en('login.password'), { exact: true }).fill('x');
    await loginAlert(page).waitFor({ state: 'detached' });
    await submitLogin(page, locked);
    await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.locked', { minutes: 15 }));
    expect(addressOf(page).pathname).toBe('/login');
  });

  test('the login link replaces the stored session, signs in and drops the password from the address bar', async () => {
    const linked = await seedAccount({ login: 'e2e_link', name: 'Link Tester', password: 'Link&Sign=In 26' });
    const page = await browser.newPage();
    // A token is stored already: the admin is signed in in this browser.
    await openSignedIn(page, adminCredentials());
    await expect.poll(() => page.getByTestId('user-menu').innerText()).not.toContain('Link Tester');

    const link = new URLSearchParams({ user: linked.account, psd: linked.password, code: linked.code });
    await open(page, `/login?${link.toString()}`);
    await waitForPath(page, DASHBOARD_PATH);
    await hamburger(page).waitFor();
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain('Link Tester');
    expect(addressOf(page).params.has('psd')).toBe(false);
    expect(decodeURIComponent(page.url())).not.toContain(linked.password);

    // Nor is the link kept in the history: Back leads to the page before it.
    await page.goBack();
    expect(addressOf(page).params.has('psd')).toBe(false);
    expect(decodeURIComponent(page.url())).not.toContain(linked.password);
  });

  test('a login link with a wrong password shows the server message on the login page', async () => {
    const page = await browser.newPage();
    const admin = adminCredentials();
    const link = new URLSearchParams({ user: admin.account, psd: `${admin.password}-wrong`, code: admin.code });
    await open(page, `/login?${link.toString()}`);
    await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.wrong_credentials'));
    expect(addressOf(page).params.has('psd')).toBe(false);
    await loginButton(page).waitFor();
  });
});
