import { describe, expect, test } from 'vitest';
import { seedAccount, seedEnterprise } from '../support/accounts.js';
import { postJson, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { DASHBOARD_PATH, openSignedIn, waitForDashboard, waitForPath } from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();
const CODE = 'E2EFIRSTRUN';
const STEPS = ['departments', 'users', 'channel', 'download', 'map'];

describe('first-run checklist', () => {
  test('a fresh enterprise sees every step open; a department ticks its step; dismissed it stays so after reload', async () => {
    seedEnterprise(CODE, 'First run e2e');
    const credentials = await seedAccount({ login: 'e2e_first_run', password: 'First-Run-2026' }, CODE);
    const page = await browser.newPage();
    await openSignedIn(page, credentials);
    await waitForPath(page, DASHBOARD_PATH);
    await waitForDashboard(page);
    const list = page.getByTestId('first-run');
    await list.getByText(en('dashboard.first_run.title')).waitFor();
    for (const step of STEPS)
      expect(await list.getByTestId(`first-run-${step}`).getAttribute('data-done')).toBe('false');
    await list.getByText(en('dashboard.first_run.progress', { done: 0, total: 5 })).waitFor();
    await shot(page, 'first-run-fresh-en');

    const saved = await postJson(await tokenOf(page), '/api/Organ/Save', { OSID: 0, OSName: 'Dispatch' });
    expect(saved.body.BaseResult.Code).toBe(8888);
    await page.reload();
    await waitForDashboard(page);
    await expect
      .poll(() => list.getByTestId('first-run-departments').getAttribute('data-done'), { timeout: 10_000 })
      .toBe('true');
    expect(await list.getByTestId('first-run-users').getAttribute('data-done')).toBe('false');
    await list.getByText(en('dashboard.first_run.progress', { done: 1, total: 5 })).waitFor();

    await page.getByTestId('first-run-dismiss').click();
    await list.waitFor({ state: 'detached' });
    await page.reload();
    await waitForDashboard(page);
    await page.getByText(en('dashboard.overview'), { exact: true }).waitFor();
    expect(await page.getByTestId('first-run').count()).toBe(0);
  }, 90_000);

  test('screens: the checklist and the talk panel (no local service here) in en and zh at 1440 and 390 px', async () => {
    seedEnterprise(CODE, 'First run e2e');
    const credentials = await seedAccount({ login: 'e2e_first_run_shots', password: 'First-Run-2026' }, CODE);
    for (const language of ['en', 'zh'] as const) {
      for (const width of [1440, 390]) {
        const page = await browser.newPage({ width, height: 900, locale: language === 'zh' ? 'zh-CN' : 'en-US' });
        await openSignedIn(page, credentials, '/', language);
        await waitForDashboard(page, language);
        await page.getByTestId('first-run').waitFor();
        await shot(page, `first-run-${language}-${width}`);
        await page.getByTestId('talk-toggle').click();
        await page.getByTestId('talk-use-browser').waitFor();
        await shot(page, `talk-panel-no-agent-${language}-${width}`);
        await page.close();
      }
    }
  }, 120_000);
});
