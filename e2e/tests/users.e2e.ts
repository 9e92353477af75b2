import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials, seedAccount } from '../support/accounts.js';
import { useBrowserPerFile } from '../support/browser.js';
import { clickWhenStill, hamburger, nameEndingWith, open, openSignedIn, waitForPath } from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

/**
 * The tests of this file follow one administrator's day and build on each other: the department
 * and users of the first test get the SIM cards of the later ones. Names carry a stamp so they
 * cannot meet what other files of the run create on the shared server.
 */
const stamp = String(Date.now()).slice(-6);
const department = `Dispatch ${stamp}`;
const prefix = `e2e_${stamp.slice(-4)}`;
/** The first phone of the batch (11 digits); the batch takes the 50 numbers from here. */
const firstPhone = Number(`139${stamp}00`);
const USERS = 50;
const phoneOf = (index: number) => String(firstPhone + index);

/** 1,000 ICCIDs of 20 digits; line 11 is too short, line 501 has letters, line 901 repeats 900. */
const iccids = Array.from({ length: 1000 }, (_, i) => `8986${stamp}${String(i).padStart(10, '0')}`);
const fileLines = [...iccids];
fileLines[10] = '12345';
fileLines[500] = '8986001234567890X2!';
fileLines[900] = fileLines[899] ?? '';
const ACCEPTED = 997;

/** What the user list shows: the rows of the table (antd marks the empty row apart). */
function rowsOf(list: Locator): Locator {
  return list.locator('tbody tr.ant-table-row');
}

/** The user page is up: the organisation tree and the list with its export (it may be empty). */
async function userPageReady(page: Page): Promise<void> {
  await page.getByTestId('org-tree').waitFor();
  await page.getByRole('button', { name: nameEndingWith(en('list.export_csv')) }).waitFor();
}

async function search(page: Page, value: string): Promise<void> {
  await page.locator('#filter_Search').fill(value);
  await page
    .getByTestId('list-filters')
    .getByRole('button', { name: nameEndingWith(en('list.search')) })
    .click();
}

/** The department's node in the organisation tree (its title reads "name (count)"). */
function treeNode(page: Page, name: string): Locator {
  return page.getByTestId('org-tree').getByText(new RegExp(`^${name}\\s*\\(\\d+\\)$`));
}

/** Picks a department in an open department select (antd gives each node its name as title). */
async function pickDepartment(page: Page, field: Locator, name: string): Promise<void> {
  await field.click();
  await clickWhenStill(page.locator('.ant-select-dropdown').getByTitle(name, { exact: true }));
}

describe('users, departments and SIM cards', () => {
  test('a new department gets 50 users from a prefix; one is found by phone and frozen', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Managent/User');
    await userPageReady(page);
    // An administrator has the way to the console accounts (the editor of the last test has not).
    await page.getByRole('button', { name: nameEndingWith(en('route.accounts')) }).waitFor();

    // The department, directly under the enterprise.
    await page.getByTestId('department-create').click();
    const drawer = page.getByTestId('department-drawer');
    await drawer.getByLabel(en('organ.name'), { exact: true }).fill(department);
    await clickWhenStill(drawer.getByRole('button', { name: nameEndingWith(en('common.save')) }));
    await treeNode(page, department).waitFor();

    // Batch creation: prefix, start number, count, password and the new department.
    await open(page, '/Managent/BatchUser');
    const form = page.getByTestId('batch-form');
    await form.getByLabel(en('batch.prefix'), { exact: true }).fill(prefix);
    await form.getByLabel(en('batch.start'), { exact: true }).fill(phoneOf(0));
    await form.getByLabel(en('batch.count'), { exact: true }).fill(String(USERS));
    await form.getByLabel(en('batch.password'), { exact: true }).fill('Batch-Pass-26');
    await form.getByLabel(en('batch.password_confirm'), { exact: true }).fill('Batch-Pass-26');
    await pickDepartment(page, form.getByLabel(en('users.department'), { exact: true }), department);
    // The licences left are checked before anything is sent: 50 fit, so no shortage.
    const balance = page.getByTestId('licence-balance');
    const balanceOf = async () => Number(/(\d[\d,]*)\s*$/.exec(await balance.innerText())?.[1]?.replace(/,/g, ''));
    await expect.poll(balanceOf).toBeGreaterThanOrEqual(USERS);
    const before = await balanceOf();
    expect(await page.getByTestId('account-shortage').count()).toBe(0);
    await page.getByRole('button', { name: nameEndingWith(en('batch.submit', { count: USERS })) }).click();
    const done = page.getByTestId('creation-done');
    await done.getByText(en('batch.done', { count: USERS }), { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(balanceOf).toBe(before - USERS);

    // The department now holds 50 users.
    await open(page, '/Managent/User');
    await clickWhenStill(treeNode(page, department));
    await page.getByText(en('list.total', { total: USERS }), { exact: true }).waitFor();

    // Found by phone: exactly one row.
    const phone = phoneOf(7);
    const list = page.getByTestId('user-list');
    await search(page, phone);
    await expect.poll(() => rowsOf(list).count()).toBe(1);
    const row = rowsOf(list).first();
    await row.getByText(phone, { exact: true }).waitFor();
    await row.getByText(en('users.state_normal'), { exact: true }).waitFor();

    // Frozen after the confirmation.
    await row.getByRole('button', { name: nameEndingWith(en('users.freeze')) }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: en('users.freeze_content') });
    await clickWhenStill(confirm.getByRole('button', { name: nameEndingWith(en('users.freeze')) }));
    await confirm.waitFor({ state: 'detached' });
    await row.getByText(en('users.state_locked'), { exact: true }).waitFor();
    await row.getByRole('button', { name: nameEndingWith(en('users.unfreeze')) }).waitFor();
  });

  test('a 1,000-line ICCID file with 3 bad lines: 997 added, the bad lines listed by number', async () => {
    const file = `/tmp/e2e-iccids-${process.pid}-${stamp}.txt`;
    fs.writeFileSync(file, `${fileLines.join('\r\n')}\r\n`);
    try {
      const page = await browser.newPage();
      await openSignedIn(page, adminCredentials(), '/Managent/Resource');
      await page.getByTestId('device-list').waitFor();
      await page.getByRole('button', { name: nameEndingWith(en('devices.import')) }).click();
      const dialog = page.getByTestId('iccid-import-dialog');
      await dialog.locator('input[type=file]').setInputFiles(file);
      await page.getByTestId('iccid-import-file').waitFor();
      await clickWhenStill(page.getByTestId('iccid-import-submit'));

      const report = page.getByTestId('iccid-import-report');
      const fileName = file.split('/').pop() ?? '';
      await report
        .getByText(en('devices.import_done', { accepted: ACCEPTED, file: fileName }), { exact: true })
        .waitFor({ timeout: 20_000 });
      await report.getByRole('tab', { name: en('devices.report_invalid_tab', { count: 2 }) }).waitFor();
      await report.getByRole('tab', { name: en('devices.report_duplicates_tab', { count: 1 }) }).waitFor();

      // Invalid lines (shown first): line 11 too short, line 501 with letters and signs.
      const invalid = rowsOf(page.getByTestId('iccid-invalid-lines'));
      await expect.poll(() => invalid.count()).toBe(2);
      await expect
        .poll(() => invalid.allInnerTexts())
        .toEqual([`11\t12345\t${en('user.iccid_length')}`, `501\t8986001234567890X2!\t${en('user.iccid_invalid')}`]);

      await report.getByRole('tab', { name: en('devices.report_duplicates_tab', { count: 1 }) }).click();
      const duplicates = rowsOf(page.getByTestId('iccid-duplicate-lines'));
      await expect.poll(() => duplicates.count()).toBe(1);
      await duplicates.getByText(en('devices.dup_in_file', { line: 900 }), { exact: true }).waitFor();
      await duplicates.getByText('901', { exact: true }).waitFor();
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  test('ICCIDs mapped onto users show in the CSV export of the department', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Managent/Resource');
    await page.getByTestId('device-list').waitFor();

    // Explicit pairs: the first five SIM cards of the file onto the first five users.
    const pairs = [0, 1, 2, 3, 4].map((i) => ({ iccid: iccids[i] ?? '', phone: phoneOf(i) }));
    await page.getByRole('button', { name: nameEndingWith(en('devices.map_title')) }).click();
    const drawer = page.getByTestId('map-drawer');
    await clickWhenStill(drawer.getByRole('tab', { name: en('devices.map_pairs') }));
    await drawer.locator('#pairs_text').fill(pairs.map((p) => `${p.iccid} ${p.phone}`).join('\n'));
    await drawer.getByRole('button', { name: en('devices.map_submit_count', { count: pairs.length }) }).click();
    await drawer
      .getByTestId('map-result')
      .getByText(en('devices.mapped_count', { count: pairs.length }), { exact: true })
      .waitFor();

    // The export of the department's users: a header and its 50 rows, the SIM cards on theirs.
    await open(page, '/Managent/User');
    await clickWhenStill(treeNode(page, department));
    await page.getByText(en('list.total', { total: USERS }), { exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: nameEndingWith(en('list.export_csv')) }).click(),
    ]);
    const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(USERS + 1);
    expect(lines[0]).toContain(en('users.phone'));
    const body = lines.slice(1);
    for (let i = 0; i < USERS; i++) {
      const rows = body.filter((line) => line.includes(phoneOf(i)));
      expect(rows, `rows of ${phoneOf(i)}`).toHaveLength(1);
    }
    for (const pair of pairs) {
      expect(body.find((line) => line.includes(pair.phone))).toContain(pair.iccid);
    }
    expect(body.filter((line) => line.includes(`8986${stamp}`))).toHaveLength(pairs.length);
  });

  test('an editor has no Account page: not in the menus, and its address shows 404', async () => {
    const editor = await seedAccount({ login: 'e2e_users_editor', password: 'Editor-Users-26', role: 'editor' });
    const page = await browser.newPage();
    await openSignedIn(page, editor, '/Managent/User');
    await userPageReady(page);
    expect(await page.getByRole('button', { name: nameEndingWith(en('route.accounts')) }).count()).toBe(0);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: nameEndingWith(en('route.profile')) }).waitFor();
    expect(await page.getByRole('menuitem', { name: nameEndingWith(en('route.accounts')) }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await open(page, '/Managent/Account');
    await waitForPath(page, '/404');
    await hamburger(page).waitFor();
    await page.getByText(en('error.page_not_found')).waitFor();
    expect(await page.getByTestId('account-list').count()).toBe(0);
  });
});
