import type { ConsoleAccountRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed, createAccount, expectFailure, expectSuccess, login, loginRaw } from './helper.js';
import { body, expectLogged, tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const GOOD_PASSWORD = 'Good#2026pw';

describe('POST /api/Account/Save (admin)', () => {
  it('creates an account that can log in; the hash is never returned; logged', async () => {
    const a = await tenant(t);
    const created = body<ConsoleAccountRow & { PasswordHash?: string }>(
      await a.api.post('/api/Account/Save', {
        LoginName: ' dispatcher ',
        Name: 'Night desk',
        Mail: 'desk@example.com',
        Role: 'editor',
        Password: GOOD_PASSWORD,
      }),
    );
    expect(created).toMatchObject({
      E_ID: a.E_ID,
      LoginName: 'dispatcher',
      Name: 'Night desk',
      Mail: 'desk@example.com',
      Role: 'editor',
      Disabled: 0,
    });
    expect(created.PasswordHash).toBeUndefined();
    await login(t.app, { username: 'dispatcher', password: GOOD_PASSWORD, code: a.code });
    const log = await expectLogged(t, a.E_ID, 'account_create', 'dispatcher');
    expect(log.Summary).not.toContain('scrypt');
    const list = expectSuccess(await a.api.get('/api/Account/QueryData'));
    expect((list.Data as ConsoleAccountRow[]).map((r) => r.LoginName).sort()).toEqual(
      ['dispatcher', a.username].sort(),
    );
    expect(JSON.stringify(list.Data)).not.toContain('scrypt');
  });

  it.each([
    [{ Password: GOOD_PASSWORD }, 'LoginName', 'validation.required'],
    [{ LoginName: '  ', Password: GOOD_PASSWORD }, 'LoginName', 'validation.required'],
    [{ LoginName: 'x' }, 'Password', 'validation.required'],
    [{ LoginName: 'x', Password: 'short' }, 'Password', 'managent.lcpsd_notcorrect'],
    [{ LoginName: 'x', Password: GOOD_PASSWORD, Mail: 'not-a-mail' }, 'Mail', 'account.mail_invalid'],
    [{ LoginName: 'x', Password: GOOD_PASSWORD, Role: 'root' }, 'Role', undefined],
  ])('refuses %j (4000 on %s)', async (form, field, key) => {
    const a = await tenant(t);
    const res = expectFailure(await a.api.post('/api/Account/Save', form), 400, 4000, key);
    expect(res.Data?.map((d) => (d as { field: string }).field)).toContain(field);
  });

  it('refuses a login account already used in the enterprise (4009 account.login_exists); another enterprise may reuse it', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(
      await a.api.post('/api/Account/Save', { LoginName: a.username, Password: GOOD_PASSWORD }),
      409,
      4009,
      'account.login_exists',
    );
    expectSuccess(await b.api.post('/api/Account/Save', { LoginName: a.username, Password: GOOD_PASSWORD }));
  });

  it('edits name, mail and role; a password on an edit resets it and ends the account’s sessions', async () => {
    const a = await tenant(t);
    const other = await createAccount(t.db, { E_ID: a.E_ID, role: 'editor' });
    const tokens = await login(t.app, { username: other.username, password: other.password, code: a.code });
    const edited = body<ConsoleAccountRow>(
      await a.api.postJson('/api/Account/Save', { A_ID: other.A_ID, Name: 'Renamed', Role: 'admin' }),
    );
    expect(edited).toMatchObject({ Name: 'Renamed', Role: 'admin' });
    expectSuccess(await authed(t.app, tokens.access_token).get('/api/Account/LoginInfo'));
    expectSuccess(await a.api.postJson('/api/Account/Save', { A_ID: other.A_ID, Password: GOOD_PASSWORD }));
    expectFailure(await authed(t.app, tokens.access_token).get('/api/Account/LoginInfo'), 401, 1001);
    const log = await expectLogged(t, a.E_ID, 'account_update', other.username);
    expect(JSON.parse(log.Summary)).toEqual({ Password: 'reset' });
  });

  it('answers 4004 for an account or enterprise outside the scope', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(await a.api.postJson('/api/Account/Save', { A_ID: b.A_ID, Name: 'Mine' }), 404, 4004);
    expectFailure(
      await a.api.post('/api/Account/Save', { E_ID: String(b.E_ID), LoginName: 'x', Password: GOOD_PASSWORD }),
      404,
      4004,
    );
    expectFailure(await a.api.get(`/api/Account/Entitys/${b.A_ID}`), 404, 4004);
    expectFailure(await a.api.delete(`/api/Account/Delete/${b.A_ID}`), 404, 4004);
    expectFailure(await a.api.post('/api/Account/Disable', { A_ID: String(b.A_ID), Disabled: 'true' }), 404, 4004);
    expectFailure(
      await a.api.post('/api/Account/ResetPassword', { A_ID: String(b.A_ID), Password: GOOD_PASSWORD }),
      404,
      4004,
    );
    expectSuccess(await b.api.get('/api/Account/LoginInfo'));
  });

  it('lets a parent admin create an account in a sub-enterprise', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const made = body<ConsoleAccountRow>(
      await parent.api.post('/api/Account/Save', {
        E_ID: String(child.E_ID),
        LoginName: 'branch-admin',
        Role: 'admin',
        Password: GOOD_PASSWORD,
      }),
    );
    expect(made.E_ID).toBe(child.E_ID);
    await login(t.app, { username: 'branch-admin', password: GOOD_PASSWORD, code: child.code });
  });
});

describe('the last active admin', () => {
  it('cannot be demoted, disabled or deleted by another admin of a parent; a second admin unlocks it', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const demote = await parent.api.postJson('/api/Account/Save', { A_ID: child.A_ID, Role: 'editor' });
    expectFailure(demote, 409, 4009, 'account.last_admin');
    expectFailure(
      await parent.api.post('/api/Account/Disable', { A_ID: String(child.A_ID), Disabled: 'true' }),
      409,
      4009,
      'account.last_admin',
    );
    expectFailure(await parent.api.delete(`/api/Account/Delete/${child.A_ID}`), 409, 4009, 'account.last_admin');
    expectSuccess(await child.api.get('/api/Account/LoginInfo'));
    // A disabled admin does not count; an active second one does.
    const disabled = await createAccount(t.db, { E_ID: child.E_ID, role: 'admin' });
    await t.db.updateTable('account').set({ Disabled: 1 }).where('A_ID', '=', disabled.A_ID).execute();
    expectFailure(await parent.api.delete(`/api/Account/Delete/${child.A_ID}`), 409, 4009, 'account.last_admin');
    await createAccount(t.db, { E_ID: child.E_ID, role: 'admin' });
    expectSuccess(await parent.api.delete(`/api/Account/Delete/${child.A_ID}`));
    await expectLogged(t, child.E_ID, 'account_delete', child.username);
    expect(
      await t.db.selectFrom('account').select('A_ID').where('A_ID', '=', child.A_ID).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('an admin cannot disable, delete or demote itself (4000 account.not_on_self)', async () => {
    const a = await tenant(t);
    await createAccount(t.db, { E_ID: a.E_ID, role: 'admin' });
    expectFailure(
      await a.api.post('/api/Account/Disable', { A_ID: String(a.A_ID), Disabled: 'true' }),
      400,
      4000,
      'account.not_on_self',
    );
    expectFailure(await a.api.delete(`/api/Account/Delete/${a.A_ID}`), 400, 4000, 'account.not_on_self');
    expectFailure(
      await a.api.postJson('/api/Account/Save', { A_ID: a.A_ID, Role: 'editor' }),
      400,
      4000,
      'account.not_on_self',
    );
    expectSuccess(await a.api.postJson('/api/Account/Save', { A_ID: a.A_ID, Name: 'Me' }));
  });

  it('two admins disabling each other at once: at least one stays active', async () => {
    const a = await tenant(t);
    const second = await createAccount(t.db, { E_ID: a.E_ID, role: 'admin' });
    const other = authed(
      t.app,
      (await login(t.app, { username: second.username, password: second.password, code: a.code })).access_token,
    );
    const results = await Promise.all([
      a.api.post('/api/Account/Disable', { A_ID: String(second.A_ID), Disabled: 'true' }),
      other.post('/api/Account/Disable', { A_ID: String(a.A_ID), Disabled: 'true' }),
    ]);
    const active = await t.db
      .selectFrom('account')
      .select('A_ID')
      .where('E_ID', '=', a.E_ID)
      .where('Role', '=', 'admin')
      .where('Disabled', '=', 0)
      .execute();
    expect(active.length).toBeGreaterThanOrEqual(1);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
  });
});

describe('disable, enable and reset password', () => {
  it('disabling ends the account’s sessions and refuses its login; enabling lets it back', async () => {
    const a = await tenant(t);
    const editor = await createAccount(t.db, { E_ID: a.E_ID, role: 'editor' });
    const credentials = { username: editor.username, password: editor.password, code: a.code };
    const session = authed(t.app, (await login(t.app, credentials)).access_token);
    const disabled = body<ConsoleAccountRow>(
      await a.api.post('/api/Account/Disable', { A_ID: String(editor.A_ID), Disabled: 'true' }),
    );
    expect(disabled.Disabled).toBe(1);
    expectFailure(await session.get('/api/Account/LoginInfo'), 401, 1001);
    expect((await loginRaw(t.app, credentials)).statusCode).toBe(403);
    await expectLogged(t, a.E_ID, 'account_disable', editor.username);
    expectSuccess(await a.api.postJson('/api/Account/Disable', { A_ID: editor.A_ID, Disabled: false }));
    await login(t.app, credentials);
    await expectLogged(t, a.E_ID, 'account_enable', editor.username);
  });

  it('reset password: the new one logs in, the old one does not, sessions end; the rule is the change-password rule', async () => {
    const a = await tenant(t);
    const editor = await createAccount(t.db, { E_ID: a.E_ID, role: 'editor' });
    const session = authed(
      t.app,
      (await login(t.app, { username: editor.username, password: editor.password, code: a.code })).access_token,
    );
    expectFailure(
      await a.api.post('/api/Account/ResetPassword', { A_ID: String(editor.A_ID), Password: 'abcdefgh' }),
      400,
      4000,
      'managent.lcpsd_notcorrect',
    );
    expectSuccess(
      await a.api.post('/api/Account/ResetPassword', { A_ID: String(editor.A_ID), Password: GOOD_PASSWORD }),
    );
    expectFailure(await session.get('/api/Account/LoginInfo'), 401, 1001);
    expect(
      (await loginRaw(t.app, { username: editor.username, password: editor.password, code: a.code })).statusCode,
    ).toBe(403);
    await login(t.app, { username: editor.username, password: GOOD_PASSWORD, code: a.code });
    await expectLogged(t, a.E_ID, 'account_reset_password', editor.username);
  });
});

describe('editors and the profile', () => {
  it('an editor gets 4003 on every account-management route', async () => {
    const e = await tenant(t, { role: 'editor' });
    for (const res of [
      await e.api.get('/api/Account/QueryData'),
      await e.api.get('/api/Account/ExportData'),
      await e.api.get(`/api/Account/Entitys/${e.A_ID}`),
      await e.api.post('/api/Account/Save', { LoginName: 'x', Password: GOOD_PASSWORD }),
      await e.api.post('/api/Account/Disable', { A_ID: String(e.A_ID), Disabled: 'true' }),
      await e.api.post('/api/Account/ResetPassword', { A_ID: String(e.A_ID), Password: GOOD_PASSWORD }),
      await e.api.delete(`/api/Account/Delete/${e.A_ID}`),
    ]) {
      expectFailure(res, 403, 4003, 'error.forbidden');
    }
  });

  it('any role reads and changes its own name and mail', async () => {
    const e = await tenant(t, { role: 'editor' });
    expect(body<ConsoleAccountRow>(await e.api.get('/api/Account/Profile'))).toMatchObject({
      A_ID: e.A_ID,
      LoginName: e.username,
      Role: 'editor',
    });
    const saved = body<ConsoleAccountRow>(
      await e.api.post('/api/Account/SaveProfile', { Name: 'Eve', Mail: 'eve@example.com' }),
    );
    expect(saved).toMatchObject({ Name: 'Eve', Mail: 'eve@example.com' });
    const log = await expectLogged(t, e.E_ID, 'profile_update', e.username);
    expect(JSON.parse(log.Summary)).toEqual({ Name: ['', 'Eve'], Mail: ['', 'eve@example.com'] });
    expectFailure(
      await e.api.post('/api/Account/SaveProfile', { Name: 'Eve', Mail: 'nope' }),
      400,
      4000,
      'account.mail_invalid',
    );
    expectFailure(
      await e.api.post('/api/Account/SaveProfile', { Name: 'x'.repeat(65), Mail: '' }),
      400,
      4000,
      'validation.too_long',
    );
  });
});
