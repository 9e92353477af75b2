import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { DASHBOARD_PATH, openSignedIn, waitForDashboard, waitForPath } from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

/** What the server itself reports, asked with the page's own session. */
async function statisticsOf(page: Page): Promise<Record<string, number>> {
  const { body } = await callApi(await tokenOf(page), 'GET', '/api/Enterprise/Statistics');
  expect(body.BaseResult.Code).toBe(8888);
  return body.BaseData as Record<string, number>;
}

describe('dashboard and system log', () => {
  test('the dashboard shows every count of the statistics call as a card, and charts', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials());
    await waitForPath(page, DASHBOARD_PATH);
    await waitForDashboard(page);
    await page.getByText(en('dashboard.overview'), { exact: true }).waitFor();
    await page.getByText(en('dashboard.licences'), { exact: true }).waitFor();

    const statistics = await statisticsOf(page);
    const cards: [field: string, title: string][] = [
      ['User', 'dashboard.users'],
      ['Online', 'dashboard.online'],
      ['Enterprise', 'dashboard.enterprises'],
      ['Balance', 'dashboard.balance'],
      ['Organ', 'dashboard.organs'],
      ['Channel', 'dashboard.channels'],
      ['ChannelSum', 'dashboard.channel_members'],
      ['RecordSum', 'dashboard.recordings'],
    ];
    for (const [field, title] of cards) {
      const value = statistics[field];
      expect(value, `statistics.${field}`).toBeTypeOf('number');
      const card = page.getByTestId(`stat-${field}`);
      await expect.poll(() => card.innerText()).toBe(`${en(title)}\n${(value ?? 0).toLocaleString('en-US')}`);
    }
    // The first-run enterprise has a licence quota, so at least that card is not an empty zero.
    expect(statistics.Balance).toBeGreaterThan(0);
    await shot(page, 'dashboard-en');
  });

  test('the system log lists the logins, and Export CSV downloads them with a header line', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/syslog');
    expect(new URL(page.url()).pathname).toBe('/System/syslog');

    const loginRows = page.getByRole('row').filter({ hasText: en('syslog.action.login') });
    await loginRows.first().waitFor();
    // This very login is the newest row: admin, from this machine.
    const newest = page.getByRole('row').nth(1);
    await expect
      .poll(() => newest.innerText())
      .toMatch(new RegExp(`^\\S+ \\S+\tadmin\t${en('syslog.action.login')}\t`));
    await expect.poll(() => newest.innerText()).toMatch(/\t127\.0\.0\.1$/);
    const [before, after] = en('list.total', { total: '#' }).split('#');
    const totalText = await page.getByText(new RegExp(`^${before}\\d+${after}$`)).innerText();
    const total = Number(totalText.replace(/\D/g, ''));
    expect(total).toBeGreaterThan(0);
    await shot(page, 'syslog-en');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en('list.export_csv') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    // UTF-8 with a byte order mark, so Excel reads Chinese text (DESIGN.md section 4).
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv
      .slice(1)
      .split(/\r?\n/)
      .filter((line) => line.length > 0);
    const header = (lines[0] ?? '').split(',');
    expect(header).toEqual(expect.arrayContaining(['Operator', 'Action', 'IP', 'CreatedAt']));
    // Every row of the list (all pages), and the newest is this login.
    expect(lines.length - 1).toBe(total);
    const row = Object.fromEntries(header.map((name, index) => [name, (lines[1] ?? '').split(',')[index]]));
    expect(row).toMatchObject({ Operator: 'admin', Action: 'login', IP: '127.0.0.1' });
  });
});
