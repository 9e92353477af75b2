import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { seedAccount, type Credentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { useBrowserPerFile } from '../support/browser.js';
import {
  DASHBOARD_PATH,
  clickWhenStill,
  expectFieldError,
  loginAlert,
  open,
  openSignedIn,
  submitLogin,
  toast,
  userMenu,
  waitForPath,
} from '../support/console.js';
import { en } from '../support/texts.js';

const browser = useBrowserPerFile();

interface PasswordDialog {
  dialog: Locator;
  current: Locator;
  next: Locator;
  confirm: Locator;
  fill(values: { current?: string; next?: string; confirm?: string }): Promise<void>;
  submit(): Promise<void>;
}

async function openPasswordDialog(page: Page): Promise<PasswordDialog> {
  await userMenu(page, en('layout.change_password'));
  const dialog = page.getByRole('dialog', { name: en('layout.change_password') });
  await dialog.waitFor();
  const current = dialog.getByLabel(en('password.current'), { exact: true });
  const next = dialog.getByLabel(en('password.new'), { exact: true });
  const confirm = dialog.getByLabel(en('password.confirm'), { exact: true });
  return {
    dialog,
    current,
    next,
    confirm,
    async fill(values) {
      if (values.current !== undefined) await current.fill(values.current);
      if (values.next !== undefined) await next.fill(values.next);
      if (values.confirm !== undefined) await confirm.fill(values.confirm);
    },
    submit: () => clickWhenStill(dialog.getByRole('button', { name: en('common.confirm') })),
  };
}

const RULE = en('managent.lcpsd_notcorrect');

describe('change password', () => {
  test('the dialog shows each rule at its edge, in the words of the rule', async () => {
    const account = await seedAccount({ login: 'e2e_rules', password: 'Rules-Start-26' });
    const page = await browser.newPage();
    await openSignedIn(page, account);
    const form = await openPasswordDialog(page);

    // Nothing typed: the current password is required and an empty new one breaks the rule.
    await form.submit();
    await expectFieldError(form.current, en('managent.lpsd_notempty'));
    await expectFieldError(form.next, RULE);
    await expectFieldError(form.confirm, '');

    await form.fill({ current: 'x' });
    await expectFieldError(form.current, '');

    // Length 6-16 with three of four classes (digits, upper, lower, other).
    const cases: [password: string, valid: boolean][] = [
      ['Ab1!x', false], // 5 characters
      ['Ab1!xy', true], // 6
      ['Abcdefgh1234567!', true], // 16
      ['Abcdefgh1234567!x', false], // 17
      ['abcdef12', false], // two classes
      ['abcDef12', true], // three classes
      ['ABCDEF!!', false], // two classes
    ];
    for (const [password, valid] of cases) {
      await form.fill({ next: password, confirm: password });
      await expectFieldError(form.next, valid ? '' : RULE);
      await expectFieldError(form.confirm, '');
    }

    await form.fill({ next: 'Valid-Pass-1', confirm: 'Valid-Pass-2' });
    await expectFieldError(form.confirm, en('managent.psd_notequal'));
    await form.fill({ confirm: 'Valid-Pass-1' });
    await expectFieldError(form.confirm, '');

    // The rules passed in the browser; the server still knows the current password is wrong.
    await form.fill({ current: 'Not-The-Current-1' });
    await form.submit();
    await expectFieldError(form.current, en('managent.old_password_wrong'));
    expect(new URL(page.url()).pathname).toBe(DASHBOARD_PATH);

    await clickWhenStill(form.dialog.getByRole('button', { name: en('common.cancel') }));
    await form.dialog.waitFor({ state: 'hidden' });
  });

  test('a valid change shows success, ends the session and only the new password logs in', async () => {
    const before: Credentials = await seedAccount({ login: 'e2e_change', password: 'Before-Change-26' });
    const after: Credentials = { ...before, password: 'After#Change9' };
    const page = await browser.newPage();
    await openSignedIn(page, before);
    const oldToken = await tokenOf(page);

    const form = await openPasswordDialog(page);
    await form.fill({ current: before.password, next: after.password, confirm: after.password });
    await form.submit();
    await toast(page, en('common.oper_success')).waitFor();
    await waitForPath(page, '/login');
    await form.dialog.waitFor({ state: 'detached' });

    // The old session is over on the server (1001), not only forgotten by this browser.
    const answer = await callApi(oldToken, 'GET', '/api/Account/LoginInfo');
    expect(answer.status).toBe(401);
    expect(answer.body.BaseResult.Code).toBe(1001);
    await open(page, '/');
    await waitForPath(page, '/login');

    await submitLogin(page, before);
    await expect.poll(() => loginAlert(page).innerText()).toBe(en('login.wrong_credentials'));
    await submitLogin(page, after);
    await waitForPath(page, DASHBOARD_PATH);
  });
});
