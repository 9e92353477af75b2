import { describe, expect, test } from 'vitest';
import { seedAccount, seedEnterprise } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { hamburger, logIn, loginButton, submitLogin, userMenu, waitForPath } from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

declare global {
  interface Window {
    seenBefore?: string[];
  }
}

describe('logout on a shared PC', () => {
  test('the next dispatcher, of another enterprise, never sees the first one’s data, not even in the first paint', async () => {
    const firstName = 'Dispatcher Quillon';
    const first = await seedAccount({ login: 'e2e_shared_first', password: 'Shared-Pc-2026', name: firstName });
    seedEnterprise('E2E_OTHER', 'Other Works');
    const secondName = 'Dispatcher Varga';
    const second = await seedAccount(
      { login: 'e2e_shared_second', password: 'Shared-Pc-2027', name: secondName },
      'E2E_OTHER',
    );

    const page = await browser.newPage();
    await logIn(page, first);
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain(firstName);
    await expect.poll(() => page.locator('body').innerText()).toContain('Demo Enterprise');
    await userMenu(page, en('layout.logout'));
    await waitForPath(page, '/login');
    await loginButton(page).waitFor();
    await expect.poll(() => page.locator('body').innerText()).not.toContain(firstName);

    // From the login page on, every change of the page is checked for the first session's data: its
    // account's name and its enterprise's name (the second account's enterprise is another one).
    const firstOnly = [firstName, 'Demo Enterprise'];
    await page.evaluate((texts) => {
      window.seenBefore = [];
      const check = () => {
        const shown = document.body.innerText;
        for (const text of texts) if (shown.includes(text)) window.seenBefore?.push(`${location.pathname}: ${text}`);
      };
      check();
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, firstOnly);

    await submitLogin(page, second);
    await page.waitForURL((url) => url.pathname !== '/login');
    await hamburger(page).waitFor();
    await expect.poll(() => page.getByTestId('user-menu').innerText()).toContain(secondName);
    await shot(page, 'logout-next-dispatcher');
    expect(await page.evaluate(() => window.seenBefore)).toEqual([]);
    const shown = await page.locator('body').innerText();
    expect(shown).toContain('Other Works');
    for (const text of firstOnly) expect(shown).not.toContain(text);
  });
});
