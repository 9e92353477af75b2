import type { Page, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials, seedAccount } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { useBrowserPerFile } from '../support/browser.js';
import {
  DASHBOARD_PATH,
  expectRouteTitle,
  loginButton,
  menuEntry,
  open,
  openSignedIn,
  sidebar,
  waitForDashboard,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

/** Collects the text of every script the page downloads from now on. */
function scriptsOf(page: Page): () => Promise<string[]> {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') responses.push(response);
  });
  return () => Promise.all(responses.map((response) => response.text()));
}

/**
 * Moves within the single-page app the way Back and Forward do (history plus popstate), without
 * reloading it: hidden routes have no menu entry to click.
 */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

describe('routes', () => {
  test('the login page downloads no chart code; the dashboard does', async () => {
    const page = await browser.newPage();
    const loginScripts = scriptsOf(page);
    await open(page, '/login');
    await loginButton(page).waitFor();
    await page.waitForLoadState('networkidle');
    const onLogin = await loginScripts();
    expect(onLogin.length).toBeGreaterThan(0);
    expect(onLogin.filter((code) => code.includes('recharts-'))).toEqual([]);
    expect(onLogin.filter((code) => /maplibre/i.test(code))).toEqual([]);

    const appScripts = scriptsOf(page);
    await openSignedIn(page, adminCredentials());
    await waitForDashboard(page);
    expect((await appScripts()).some((code) => code.includes('recharts-'))).toBe(true);
  });

  test('every route of the route table opens its page, and the group routes redirect', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    await waitForDashboard(page);
    const routes: [path: string, titleKey: string, landsOn?: string][] = [
      ['/', 'route.dashboard', DASHBOARD_PATH],
      ['/Managent', 'route.users', '/Managent/User'],
      ['/Managent/User', 'route.users'],
      ['/Managent/Resource', 'route.resources'],
      ['/Managent/Account', 'route.accounts'],
      ['/Channel', 'route.channels', '/Channel/Channel'],
      ['/Channel/Channel', 'route.channels'],
      ['/Channel/RecdHis', 'route.recordings'],
      ['/Channel/cmember', 'route.channel_members'],
      ['/System', 'route.subject', '/System/subject'],
      ['/System/subject', 'route.subject'],
      ['/System/plugin', 'route.plugin'],
      ['/System/syslog', 'route.syslog'],
      ['/System/notify', 'route.notify'],
      ['/main', 'route.map', '/main/map'],
      ['/main/map', 'route.map'],
      ['/main/3dmap', 'route.map3d'],
      ['/main/trace', 'route.trace'],
      ['/main/video', 'route.video'],
      ['/profile', 'route.profile'],
    ];
    for (const [path, titleKey, landsOn] of routes) {
      await goInApp(page, path);
      await waitForPath(page, landsOn ?? path);
      await expectRouteTitle(page, titleKey);
      expect(await page.getByText(en('error.page_not_found')).count(), path).toBe(0);
    }
  });

  test('an editor sees neither the theme settings nor the system log, and cannot open them', async () => {
    const editor = await seedAccount({ login: 'e2e_editor', password: 'Editor-Role-26', role: 'editor' });
    const page = await browser.newPage();
    await openSignedIn(page, editor);
    await waitForDashboard(page);
    // Both visible entries of the System group are for administrators: the group goes too.
    await menuEntry(sidebar(page), en('managent.title')).waitFor();
    for (const key of ['route.system', 'route.subject', 'route.syslog']) {
      expect(await menuEntry(sidebar(page), en(key)).count(), key).toBe(0);
    }
    for (const path of ['/System/subject', '/System/syslog']) {
      await goInApp(page, path);
      await waitForPath(page, '/404');
      await page.getByText(en('error.page_not_found')).waitFor();
    }
  });

  test('with the default map set to NONE the live map leaves the menu, and comes back after', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    await menuEntry(sidebar(page), en('route.map')).waitFor();
    const token = await tokenOf(page);
    const setMap = async (value: string) => {
      const answer = await callApi(token, 'POST', '/api/Account/ModifyConfig', {
        scCode: 'DefaultMap',
        scValue: value,
      });
      expect(answer.body.BaseResult.Code, answer.body.BaseResult.Message).toBe(8888);
    };
    await setMap('NONE');
    try {
      await page.reload();
      await waitForDashboard(page);
      expect(await menuEntry(sidebar(page), en('route.map')).count()).toBe(0);
    } finally {
      await setMap('OFFLINE');
    }
    await page.reload();
    await menuEntry(sidebar(page), en('route.map')).waitFor();
  });
});
