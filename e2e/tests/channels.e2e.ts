import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { useBrowserPerFile } from '../support/browser.js';
import {
  addressOf,
  clickWhenStill,
  expectFieldError,
  nameEndingWith,
  open,
  openSignedIn,
  toast,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

/**
 * One dispatcher's channel work, test after test: users come from the API, the channel is made in
 * the picker, then its members, its recording and its end. Names carry a stamp so they cannot meet
 * what other files of the run create on the shared server.
 */
const stamp = String(Date.now()).slice(-6);
const channelName = `Ops ${stamp}`;
const USERS = 30;
const firstPhone = Number(`137${stamp}00`);
const phoneOf = (index: number) => String(firstPhone + index);
const nameOf = (index: number) => `ch${stamp}${phoneOf(index)}`;
/** "137<stamp>0" matches the phones ending 00-09: ten users. */
const TEN = `137${stamp}0`;

interface Envelope {
  BaseResult: { Code: number; Message: string };
  BaseData?: unknown;
  Data?: { Code: string; Value: string }[];
}

/** A JSON call for setup (BatchAdd and ModifyConfig take bodies, which `callApi` does not send). */
async function api(token: string, path: string, body?: Record<string, unknown>): Promise<Envelope> {
  const response = await fetch(new URL(path, inject('baseUrl')), {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as Envelope;
  expect(answer.BaseResult.Code, `${path}: ${answer.BaseResult.Message}`).toBe(8888);
  return answer;
}

/** RecordEnable as it was before this file changed it: put back at the end for the other files. */
let restoreRecordEnable: ((token: string) => Promise<unknown>) | undefined;
/** ChannelTypeID likewise (the batch test enables a second type). */
let restoreChannelTypes: ((token: string) => Promise<unknown>) | undefined;
/** Channels the later tests made through the API: deleted at the end. */
const madeChannels: number[] = [];
let lastToken = '';
afterAll(async () => {
  await restoreRecordEnable?.(lastToken);
  await restoreChannelTypes?.(lastToken);
  for (const cid of madeChannels) {
    await fetch(new URL(`/api/THChannel/DeleteChannel?cid=${cid}`, inject('baseUrl')), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${lastToken}` },
    });
  }
});

function rowsOf(list: Locator): Locator {
  return list.locator('.ant-table-row');
}

function channelRow(page: Page): Locator {
  return rowsOf(page.getByTestId('channel-list')).filter({ hasText: channelName });
}

async function searchChannel(page: Page): Promise<void> {
  const filters = page.getByTestId('list-filters');
  await filters.getByLabel(en('channels.search'), { exact: true }).fill(channelName);
  await filters.getByRole('button', { name: nameEndingWith(en('list.search')) }).click();
}

function recordSwitch(page: Page): Locator {
  return channelRow(page).getByRole('switch', { name: en('channels.record_of', { name: channelName }) });
}

describe('channels and members', () => {
  test('a channel with ten members from the picker; a 21-character name is refused under the field', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    await api(await tokenOf(page), '/api/UserInfo/BatchAdd', {
      prefix: `ch${stamp}`,
      start: phoneOf(0),
      count: USERS,
      Password: 'Chan-Pass-26',
    });
    await page.getByTestId('channel-list').waitFor();

    await page.getByRole('button', { name: nameEndingWith(en('channels.create')) }).click();
    const drawer = page.getByTestId('channel-drawer');
    const name = drawer.getByLabel(en('channels.name'), { exact: true });
    // 21 Chinese characters: counted as characters, one too many.
    await name.fill('频'.repeat(21));
    await clickWhenStill(drawer.getByRole('button', { name: nameEndingWith(en('common.save')) }));
    await expectFieldError(name, `${en('validation.too_long')} ${en('channels.name_hint')}`);
    await drawer.getByText(en('channel.members_empty'), { exact: true }).waitFor();

    await name.fill(channelName);
    await drawer.getByRole('button', { name: nameEndingWith(en('channels.choose_members')) }).click();
    const picker = page.getByTestId('member-picker');
    await picker.getByRole('textbox', { name: en('channels.picker_search') }).fill(TEN);
    await picker.getByText(en('channels.picker_matches', { count: 10 }), { exact: true }).waitFor();
    await picker.getByRole('button', { name: nameEndingWith(en('channels.picker_select_all', { count: 10 })) }).click();
    await picker.getByText(en('channels.picker_chosen', { count: 10 }), { exact: true }).waitFor();
    // Unticking one candidate takes it off the chosen list; ticking it again brings it back.
    const one = picker.getByRole('checkbox', { name: `${nameOf(3)} ${phoneOf(3)}` });
    await one.uncheck();
    await picker.getByText(en('channels.picker_chosen', { count: 9 }), { exact: true }).waitFor();
    await one.check();
    await picker.getByTestId('picker-ok').click();
    await picker.waitFor({ state: 'detached' });
    await drawer.getByText(en('channels.picker_chosen', { count: 10 }), { exact: true }).waitFor();

    await clickWhenStill(drawer.getByRole('button', { name: nameEndingWith(en('common.save')) }));
    await drawer.waitFor({ state: 'hidden' });
    await searchChannel(page);
    await expect.poll(() => rowsOf(page.getByTestId('channel-list')).count()).toBe(1);
    await channelRow(page)
      .getByRole('button', { name: en('channels.members_of', { name: channelName, count: 10 }) })
      .waitFor();
    await channelRow(page).getByText(en('channels.type_106'), { exact: true }).waitFor();
  });

  test("a member's priority is changed and shows in the list and the channel tree", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    await searchChannel(page);
    await channelRow(page)
      .getByRole('button', { name: nameEndingWith(en('channels.members')) })
      .click();
    await waitForPath(page, '/Channel/cmember');
    expect(Number(addressOf(page).params.get('cid'))).toBeGreaterThan(0);

    const list = page.getByTestId('member-list');
    await list.getByText(en('channels.members_title', { name: channelName }), { exact: true }).waitFor();
    await list.getByText(en('list.total', { total: 10 }), { exact: true }).waitFor();
    const member = nameOf(4);
    await list.getByRole('button', { name: en('channels.priority_of', { name: member, priority: 0 }) }).click();
    const dialog = page.getByTestId('member-priority-dialog');
    await dialog.getByLabel(en('channels.member_priority'), { exact: true }).fill('5');
    await clickWhenStill(
      page
        .getByRole('dialog')
        .filter({ has: dialog })
        .getByRole('button', { name: nameEndingWith(en('common.save')) }),
    );
    await toast(page, en('channels.priority_changed_one', { name: member, priority: 5 })).waitFor();
    await list.getByRole('button', { name: en('channels.priority_of', { name: member, priority: 5 }) }).waitFor();

    // The tree lists members highest priority first: the changed one leads.
    const tree = page.getByTestId('channel-tree');
    await tree.getByLabel(en('channels.tree_search'), { exact: true }).fill(channelName);
    await tree
      .locator('.ant-tree-treenode')
      .filter({ hasText: en('channels.tree_channel', { name: channelName, count: 10 }) })
      .locator('.ant-tree-switcher')
      .click();
    const firstMember = tree.getByText(en('channels.tree_member', { name: member, priority: 5 }), { exact: true });
    await firstMember.waitFor();
  });

  test('recording is refused while the enterprise has it off, then switched on and kept after a reload', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    // Each sign-in replaces the account's session: this page's token is the one that works now.
    const token = await tokenOf(page);
    const config = await api(token, '/api/Account/SysConfig');
    const before = config.Data?.find((entry) => entry.Code === 'RecordEnable')?.Value ?? 'FALSE';
    restoreRecordEnable = (current) =>
      api(current, '/api/Account/ModifyConfig', { scCode: 'RecordEnable', scValue: before });
    lastToken = token;
    await api(token, '/api/Account/ModifyConfig', { scCode: 'RecordEnable', scValue: 'FALSE' });

    await searchChannel(page);
    await recordSwitch(page).click();
    await toast(page, en('channel.record_disabled')).waitFor();
    await expect.poll(() => recordSwitch(page).getAttribute('aria-checked')).toBe('false');

    await api(token, '/api/Account/ModifyConfig', { scCode: 'RecordEnable', scValue: 'TRUE' });
    await recordSwitch(page).click();
    await toast(page, en('channels.record_on', { name: channelName })).waitFor();
    await expect.poll(() => recordSwitch(page).getAttribute('aria-checked')).toBe('true');

    await page.reload();
    await searchChannel(page);
    await expect.poll(() => recordSwitch(page).getAttribute('aria-checked')).toBe('true');
  });

  test('the channel is deleted after the confirmation', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    lastToken = await tokenOf(page);
    await searchChannel(page);
    await channelRow(page)
      .getByRole('button', { name: en('channels.delete_named', { name: channelName }) })
      .click();
    const confirm = page.getByRole('dialog').filter({ hasText: en('channels.delete_title', { name: channelName }) });
    await confirm.getByText(en('channels.delete_content', { count: 10 }), { exact: true }).waitFor();
    await clickWhenStill(confirm.getByRole('button', { name: nameEndingWith(en('common.delete')) }));
    await confirm.waitFor({ state: 'detached' });
    await page.getByTestId('channel-list').getByText(en('list.no_match'), { exact: true }).waitFor();

    // Gone for good: a reload finds nothing either.
    await open(page, '/Channel/Channel');
    await searchChannel(page);
    await page.getByTestId('channel-list').getByText(en('list.no_match'), { exact: true }).waitFor();
  });
});

/** Two channels made through the API for the batch change and the user's channels. */
const batchPrefix = `Batch ${stamp}`;
const batchNames = [`${batchPrefix} A`, `${batchPrefix} B`];
/** A user of the first test's batch who is in no channel. */
const roomUser = nameOf(25);

async function searchChannels(page: Page, text: string): Promise<void> {
  const filters = page.getByTestId('list-filters');
  await filters.getByLabel(en('channels.search'), { exact: true }).fill(text);
  await filters.getByRole('button', { name: nameEndingWith(en('list.search')) }).click();
}

function namedRow(page: Page, name: string): Locator {
  return rowsOf(page.getByTestId('channel-list')).filter({
    has: page.getByRole('cell', { name, exact: true }),
  });
}

/** Opens the "Channels" dialog of `roomUser` from the user list. */
async function openUserChannels(page: Page): Promise<Locator> {
  await open(page, '/Managent/User');
  const filters = page.getByTestId('list-filters');
  await filters.getByLabel(en('users.search'), { exact: true }).fill(roomUser);
  await filters.getByRole('button', { name: nameEndingWith(en('list.search')) }).click();
  const list = page.getByTestId('user-list');
  await expect.poll(() => rowsOf(list).count()).toBe(1);
  await rowsOf(list)
    .filter({ hasText: roomUser })
    .getByRole('button', { name: en('channels.user_channels'), exact: true })
    .click();
  const dialog = page.getByTestId('user-channels-dialog');
  await page
    .getByRole('dialog')
    .getByText(en('channels.user_channels_title', { name: roomUser }), { exact: true })
    .waitFor();
  await dialog
    .getByTestId('user-channels-count')
    .filter({ hasNotText: en('common.loading') })
    .waitFor();
  return dialog;
}

describe('several channels and a user of many channels', () => {
  test('two ticked channels take priority 6 and another allowed type in one dialog', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    const token = await tokenOf(page);
    lastToken = token;
    const config = await api(token, '/api/Account/SysConfig');
    const before = config.Data?.find((entry) => entry.Code === 'ChannelTypeID')?.Value ?? '106';
    restoreChannelTypes = (current) =>
      api(current, '/api/Account/ModifyConfig', { scCode: 'ChannelTypeID', scValue: before });
    await api(token, '/api/Account/ModifyConfig', { scCode: 'ChannelTypeID', scValue: '106,105' });
    for (const cname of batchNames) {
      const made = await api(token, '/api/THChannel/SaveChannel', { cname, ctypeid: 106 });
      madeChannels.push((made.BaseData as { CID: number }).CID);
    }
    // The console read the settings when it opened: a reload sees the second type.
    await page.reload();
    await page.getByTestId('channel-list').waitFor();
    await searchChannels(page, batchPrefix);
    await expect.poll(() => rowsOf(page.getByTestId('channel-list')).count()).toBe(2);

    const change = page.getByRole('button', { name: nameEndingWith(en('channels.batch_change')) });
    await expect.poll(() => change.isDisabled()).toBe(true);
    for (const name of batchNames) await namedRow(page, name).getByRole('checkbox').check();
    await change.click();
    const dialog = page.getByTestId('batch-channel-dialog');
    await page
      .getByRole('dialog')
      .getByText(en('channels.batch_title', { count: 2 }), { exact: true })
      .waitFor();
    await dialog.getByLabel(en('channels.priority'), { exact: true }).fill('6');
    await dialog.getByLabel(en('channels.type'), { exact: true }).click();
    await clickWhenStill(
      page.locator('.ant-select-dropdown:visible').getByTitle(en('channels.type_105'), { exact: true }),
    );
    await clickWhenStill(
      page
        .getByRole('dialog')
        .filter({ has: dialog })
        .getByRole('button', { name: nameEndingWith(en('common.save')) }),
    );
    await toast(page, en('channels.batch_changed', { count: 2 })).waitFor();

    for (const name of batchNames) {
      const row = namedRow(page, name);
      await row.getByText(en('channels.type_105'), { exact: true }).waitFor();
      await row.getByRole('cell', { name: '6', exact: true }).waitFor();
    }
    // Done with them: the selection is cleared.
    await expect.poll(() => change.isDisabled()).toBe(true);
  });

  test("a user's channels: one ticked from the user list, then none after the confirmation", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Managent/User');
    lastToken = await tokenOf(page);
    const [first] = batchNames as [string, string];

    let dialog = await openUserChannels(page);
    await dialog.getByRole('textbox', { name: en('channels.user_channels_search') }).fill(batchPrefix);
    await expect.poll(() => dialog.locator('.ant-table-row').count()).toBe(2);
    await dialog.getByRole('checkbox', { name: first, exact: true }).check();
    await clickWhenStill(
      page
        .getByRole('dialog')
        .filter({ has: dialog })
        .getByRole('button', { name: nameEndingWith(en('common.save')) }),
    );
    await toast(page, en('channels.user_channels_saved_one', { name: roomUser, count: 1 })).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The channel list counts the new member.
    await open(page, '/Channel/Channel');
    await searchChannels(page, first);
    await namedRow(page, first)
      .getByRole('button', { name: en('channels.members_of', { name: first, count: 1 }) })
      .waitFor();

    // Unticking everything asks first, then the user is in no channel. The dialog's list is virtual
    // and in channel order, so among the shared server's many channels the batch is found by search.
    dialog = await openUserChannels(page);
    await dialog.getByRole('textbox', { name: en('channels.user_channels_search') }).fill(batchPrefix);
    await expect.poll(() => dialog.locator('.ant-table-row').count()).toBe(2);
    const box = dialog.getByRole('checkbox', { name: first, exact: true });
    await expect.poll(() => box.isChecked()).toBe(true);
    await box.uncheck();
    await clickWhenStill(
      page
        .getByRole('dialog')
        .filter({ has: dialog })
        .getByRole('button', { name: nameEndingWith(en('common.save')) }),
    );
    const confirm = page
      .getByRole('dialog')
      .filter({ hasText: en('channels.user_leave_all_title', { name: roomUser }) });
    await confirm.getByText(en('channels.user_leave_all_content', { count: 1 }), { exact: true }).waitFor();
    await clickWhenStill(confirm.getByRole('button', { name: nameEndingWith(en('channels.user_leave_all')) }));
    await toast(page, en('channels.user_channels_saved_other', { name: roomUser, count: 0 })).waitFor();

    dialog = await openUserChannels(page);
    await expect.poll(() => dialog.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await expect
      .poll(() => dialog.getByTestId('user-channels-count').textContent())
      .toMatch(new RegExp(`^${en('channels.user_channels_ticked', { count: 0, total: 999 }).replace('999', '\\d+')}$`));
    await open(page, '/Channel/Channel');
    await searchChannels(page, first);
    await namedRow(page, first)
      .getByRole('button', { name: en('channels.members_of', { name: first, count: 0 }) })
      .waitFor();
  });
});
