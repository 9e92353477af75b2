import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { adminCredentials, seedAccount } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { clickWhenStill, fieldError, nameEndingWith, openSignedIn, toast } from '../support/console.js';
import { openTerminalSocket, Terminal } from '../support/terminal.js';
import { en, text } from '../support/texts.js';

const browser = useBrowserPerFile();

/** Names carry a stamp so they cannot meet what other files of the run create on the shared server. */
const stamp = String(Date.now()).slice(-6);
const phone = `136${stamp}07`;
const terminalName = `SOS patrol ${stamp}`;
const terminalPassword = 'Term-Pass-26';
const operatorName = `Duty officer ${stamp}`;
const SOS_TEXT = `Fell at gate ${stamp}`;

interface TerminalReply {
  type: 'ack' | 'error';
  seq: number | null;
  code?: string;
  N_ID?: number;
}

type Send = (message: Record<string, unknown>) => Promise<TerminalReply>;

/**
 * A radio on the `/terminal` WebSocket (docs/terminal-protocol.md), logged in as `phone` for `work`
 * (its `send` resolves with the reply of its `seq`), then logged out: a logout, not a dropped
 * socket, which would raise an Offline alarm as well.
 */
async function asTerminal(phone: string, device: string, work: (send: Send) => Promise<void>): Promise<void> {
  const terminal = new Terminal(await openTerminalSocket());
  const send: Send = async (message) => (await terminal.send(message)) as unknown as TerminalReply;
  try {
    const login = await send({ type: 'login', phone, password: terminalPassword, device });
    expect(login.type).toBe('ack');
    await work(send);
    await send({ type: 'logout' });
  } finally {
    terminal.close();
  }
}

/** A terminal user made the way the console makes one. */
async function createTerminalUser(token: string, userName = terminalName, mobile = phone): Promise<void> {
  const response = await fetch(new URL('/api/UserInfo/Save', inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ UserName: userName, MobilePhone: mobile, Password: terminalPassword }),
  });
  const answer = (await response.json()) as { BaseResult: { Code: number; Message: string } };
  expect(answer.BaseResult.Code, answer.BaseResult.Message).toBe(8888);
}

function rowsOf(page: Page): Locator {
  return page.getByTestId('alarm-list').locator('tbody tr.ant-table-row');
}

/** The dialog of a step, once it stands still, with its comment field filled. */
async function fillComment(page: Page, comment: string): Promise<Locator> {
  const dialog = page.getByTestId('notify-action-dialog');
  const field = dialog.getByLabel(en('alarms.comment'), { exact: true });
  await field.waitFor();
  await field.fill(comment);
  return field;
}

function okButton(page: Page, label: string): Locator {
  return page.locator('.ant-modal').getByRole('button', { name: nameEndingWith(label) });
}

describe('alarm records', () => {
  test('an SOS from a terminal is acknowledged with a comment, then resolved', async () => {
    // The administrator makes the terminal user; the radio logs in and raises an SOS at a position.
    const setup = await browser.newPage();
    await openSignedIn(setup, adminCredentials(), '/System/notify');
    await createTerminalUser(await tokenOf(setup));
    await asTerminal(phone, 'e2e radio', async (send) => {
      const sos = await send({ type: 'sos', lat: 22.5431, lon: 114.0579, text: SOS_TEXT });
      expect(sos.type, sos.code).toBe('ack');
      expect(sos.N_ID).toBeGreaterThan(0);
    });

    // An operator (an editor: alarms are every role's work) finds it by the terminal's phone.
    const operator = await seedAccount({
      login: `notify_${stamp}`,
      password: 'Notify-Pass-26',
      name: operatorName,
      role: 'editor',
    });
    const page = await browser.newPage();
    await openSignedIn(page, operator, '/System/notify');
    await page.locator('#filter_Search').fill(phone);
    await page
      .getByTestId('list-filters')
      .getByRole('button', { name: nameEndingWith(en('list.search')) })
      .click();
    await expect.poll(() => rowsOf(page).count()).toBe(1);
    const row = rowsOf(page).first();
    await row.getByText(en('alarms.type_sos'), { exact: true }).waitFor();
    await row.getByText(terminalName, { exact: true }).waitFor();
    await row.getByText(SOS_TEXT, { exact: true }).waitFor();
    await row.getByText('22.54310, 114.05790', { exact: true }).waitFor();
    await row.getByText(en('alarms.state_new'), { exact: true }).waitFor();

    // Acknowledged with a comment: the state and who did it, by name.
    await row.getByRole('button', { name: nameEndingWith(en('alarms.acknowledge')) }).click();
    await fillComment(page, 'On my way');
    await clickWhenStill(okButton(page, en('alarms.acknowledge')));
    await toast(page, en('alarms.acknowledged_done', { count: 1 })).waitFor();
    await row.getByText(en('alarms.state_acknowledged'), { exact: true }).waitFor();
    await row.getByText(new RegExp(`^${en('alarms.acknowledged_by', { name: operatorName, time: '.+' })}$`)).waitFor();
    await row.getByText('On my way', { exact: true }).first().waitFor();
    // Acknowledged once is enough: only resolving is left.
    expect(await row.getByRole('button', { name: nameEndingWith(en('alarms.acknowledge')) }).isDisabled()).toBe(true);

    // Resolving needs a comment: the dialog says so before anything is sent.
    await row.getByRole('button', { name: nameEndingWith(en('alarms.resolve')) }).click();
    const comment = await fillComment(page, '   ');
    await clickWhenStill(okButton(page, en('alarms.resolve')));
    await expect.poll(() => fieldError(comment)).toContain(en('validation.required'));
    await comment.fill('Helped up, no injury');
    await okButton(page, en('alarms.resolve')).click();
    await toast(page, en('alarms.resolved_done', { count: 1 })).waitFor();
    await row.getByText(en('alarms.state_resolved'), { exact: true }).waitFor();
    await row.getByText(new RegExp(`^${en('alarms.resolved_by', { name: operatorName, time: '.+' })}$`)).waitFor();
    for (const step of ['alarms.acknowledge', 'alarms.resolve']) {
      expect(await row.getByRole('button', { name: nameEndingWith(en(step)) }).isDisabled()).toBe(true);
    }
  });

  test('safety alarms and the details the server writes read in the reader language (issue 51)', async () => {
    const safetyPhone = `136${stamp}09`;
    const safetyName = `Roof crew ${stamp}`;
    const setup = await browser.newPage();
    await openSignedIn(setup, adminCredentials(), '/System/notify');
    await createTerminalUser(await tokenOf(setup), safetyName, safetyPhone);
    await setup.close();
    await asTerminal(safetyPhone, 'e2e', async (send) => {
      expect((await send({ type: 'status', battery: 9, signal: 80 })).type).toBe('ack');
      expect((await send({ type: 'manDown', lat: 22.54, lon: 114.06 })).type).toBe('ack');
      expect((await send({ type: 'sos', lat: 22.54, lon: 114.06 })).type).toBe('ack');
    });
    for (const [language, width] of [
      ['en', 1440],
      ['zh', 1440],
      ['zh', 390],
      ['en', 390],
    ] as const) {
      const page = await browser.newPage({ locale: language, width, height: width === 390 ? 844 : 900 });
      await openSignedIn(page, adminCredentials(), '/System/notify', language);
      const rows = rowsOf(page).filter({ hasText: safetyPhone });
      await expect.poll(() => rows.count()).toBe(3);
      const say = (key: string, params: Record<string, string | number> = {}) => text(language, key, params);
      await rows
        .filter({ hasText: say('alarms.type_man_down') })
        .getByText(say('alarms.detail.man_down'))
        .waitFor();
      await rows
        .filter({ hasText: say('alarms.type_low_battery') })
        .getByText(say('alarms.detail.battery', { percent: 9 }))
        .waitFor();
      await rows.getByText(say('alarms.detail.sos'), { exact: true }).waitFor();
      if (language === 'zh') expect((await rows.allInnerTexts()).join(' ')).not.toMatch(/ManDown|Battery|Man down/);
      await shot(page, `alarm-records-${language}-${width}`);
      // The Type filter names the safety alarms too.
      const filters = page
        .locator('.ant-form-item')
        .filter({ hasText: say('alarms.type') })
        .first();
      if (await filters.isVisible()) {
        await filters.locator('.ant-select').click();
        for (const key of ['alarms.type_lone_worker', 'alarms.type_no_movement', 'alarms.type_man_down'])
          await page
            .locator('.ant-select-item-option')
            .filter({ hasText: say(key) })
            .first()
            .waitFor();
        await shot(page, `alarm-type-filter-${language}-${width}`);
        await page.keyboard.press('Escape');
      }
      await page.close();
    }
  }, 90_000);

  test('a new SOS appears in the open list without a reload', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/System/notify');
    await page.getByTestId('alarm-list').waitFor();
    const liveText = `Live SOS ${stamp}`;
    const livePhone = `136${stamp}08`;
    await createTerminalUser(await tokenOf(page), `Live patrol ${stamp}`, livePhone);
    expect(await page.getByText(liveText, { exact: true }).count()).toBe(0);
    await asTerminal(livePhone, 'e2e radio', async (send) => {
      expect((await send({ type: 'sos', lat: 22.5, lon: 114.1, text: liveText })).type).toBe('ack');
    });
    // Pushed by the hub; the list refetches on its own, and the bell counts it.
    await rowsOf(page).filter({ hasText: liveText }).first().waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.getByTestId('alarm-bell').getAttribute('aria-label'))
      .toMatch(/^Alarm records: \d+ unhandled alarms?$/);
  });
});
