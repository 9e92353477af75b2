import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import {
  hamburger,
  loginAlert,
  loginButton,
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
import { text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile();

/** The login page reads entirely in `language`: title, the three labels, the button. */
async function expectLoginPageIn(page: Page, language: Language): Promise<void> {
  await page.getByRole('heading', { name: text(language, 'app.title') }).waitFor();
  for (const key of ['login.account', 'login.password', 'login.company_code']) {
    await page.getByLabel(text(language, key), { exact: true }).waitFor();
  }
  await loginButton(page, language).waitFor();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toMatch(new RegExp(`^${language}`));
}

/** The sidebar's top-level entries read in `language`. */
async function expectMenuIn(page: Page, language: Language): Promise<void> {
  for (const key of ['route.dashboard', 'managent.title', 'route.channel_group', 'route.system']) {
    await menuEntry(sidebar(page), text(language, key)).waitFor();
  }
}

describe('interface language', () => {
  test('Chinese chosen on the login page survives reloads, before and after the login', async () => {
    const page = await browser.newPage({ locale: 'en-US' });
    await open(page, '/login');
    await expectLoginPageIn(page, 'en');
    await page.getByRole('button', { name: '简体中文', exact: true }).click();
    await expectLoginPageIn(page, 'zh');
    // The Chinese texts really are Chinese, not English copied over.
    expect(text('zh', 'login.submit')).toMatch(/\p{Script=Han}/u);
    await page.reload();
    await expectLoginPageIn(page, 'zh');
    await shot(page, 'login-zh');

    // The server's message arrives as a key and is shown in the chosen language.
    const admin = adminCredentials();
    await submitLogin(page, { ...admin, password: `${admin.password}-wrong` }, 'zh');
    await expect.poll(() => loginAlert(page).innerText()).toBe(text('zh', 'login.wrong_credentials'));

    await submitLogin(page, admin, 'zh');
    await hamburger(page, 'zh').waitFor();
    await expectMenuIn(page, 'zh');
    await page.reload();
    await expectMenuIn(page, 'zh');
    await waitForDashboard(page, 'zh');
    await shot(page, 'dashboard-zh');

    await open(page, '/System/syslog');
    await page.getByRole('button', { name: text('zh', 'list.export_csv') }).waitFor();
    await page
      .getByRole('cell', { name: text('zh', 'syslog.action.login'), exact: true })
      .first()
      .waitFor();
    await shot(page, 'syslog-zh');
  });

  test('Japanese chosen in the top bar survives a reload and reaches the login page after logout', async () => {
    const page = await browser.newPage({ locale: 'en-US' });
    await openSignedIn(page, adminCredentials());
    await expectMenuIn(page, 'en');

    await page.getByRole('button', { name: text('en', 'common.language'), exact: true }).click();
    await pickMenuItem(page, '日本語');
    await expectMenuIn(page, 'ja');
    await page.reload();
    await expectMenuIn(page, 'ja');

    await userMenu(page, text('ja', 'layout.logout'));
    await waitForPath(page, '/login');
    await expectLoginPageIn(page, 'ja');
  });

  test('without a stored choice the browser language decides', async () => {
    const page = await browser.newPage({ locale: 'ja-JP' });
    await open(page, '/login');
    await expectLoginPageIn(page, 'ja');
  });
});
