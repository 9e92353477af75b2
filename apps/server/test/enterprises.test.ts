import type { EnterpriseDetail } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, sysLogOf } from './helper.js';
import { addOrgan, addUser, body, expectLogged, tenant, uniquePhone } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

let codeCounter = 0;
const newCode = () => `SUB${process.pid}X${++codeCounter}`;

describe('GET /api/Enterprise/Entitys/{id}', () => {
  it('returns the enterprise with users, balance and children, for any role', async () => {
    const a = await tenant(t, { quota: 5 });
    await addUser(a.api);
    await addUser(a.api);
    await tenant(t, { parentId: a.E_ID });
    const detail = body<EnterpriseDetail>(await a.api.get(`/api/Enterprise/Entitys/${a.E_ID}`));
    expect(detail).toMatchObject({
      E_ID: a.E_ID,
      E_Code: a.code,
      Quota: 5,
      UserCount: 2,
      Balance: 3,
      ChildCount: 1,
      P_ID: null,
    });
    const editor = await tenant(t, { role: 'editor' });
    expectSuccess(await editor.api.get(`/api/Enterprise/Entitys/${editor.E_ID}`));
  });

  it('answers 4004 for an enterprise outside the scope, including the parent', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const other = await tenant(t);
    expectFailure(await child.api.get(`/api/Enterprise/Entitys/${parent.E_ID}`), 404, 4004);
    expectFailure(await child.api.get(`/api/Enterprise/Entitys/${other.E_ID}`), 404, 4004);
    expectSuccess(await parent.api.get(`/api/Enterprise/Entitys/${child.E_ID}`));
  });
});

describe('POST /api/Enterprise/Save (sub-enterprises)', () => {
  it('creates a sub-enterprise under the working one, with code, name, quota and expiry, and logs it', async () => {
    const a = await tenant(t);
    const code = newCode();
    const res = await a.api.post('/api/Enterprise/Save', {
      E_Code: code,
      E_Name: 'Branch',
      Quota: '20',
      ExpireAt: '2031-12-31',
    });
    const row = body<EnterpriseDetail>(res);
    expect(row).toMatchObject({ E_Code: code, E_Name: 'Branch', P_ID: a.E_ID, Quota: 20, Disabled: 0 });
    expect(new Date(row.ExpireAt as number).toISOString()).toBe('2031-12-31T23:59:59.999Z');
    await expectLogged(t, row.E_ID, 'enterprise_create', code);
    const list = expectSuccess(
      await a.api.get(
        `/api/Enterprise/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ P_ID: a.E_ID }))}`,
      ),
    );
    expect((list.Data as EnterpriseDetail[]).map((e) => e.E_Code)).toEqual([code]);
  });

  it('edits quota, expiry and name of a sub-enterprise; logs before and after', async () => {
    const a = await tenant(t);
    const child = body<EnterpriseDetail>(
      await a.api.post('/api/Enterprise/Save', { E_Code: newCode(), E_Name: 'Old', Quota: '1' }),
    );
    const edited = body<EnterpriseDetail>(
      await a.api.postJson('/api/Enterprise/Save', { E_ID: child.E_ID, E_Name: 'New', Quota: 50, ExpireAt: '' }),
    );
    expect(edited).toMatchObject({ E_Name: 'New', Quota: 50, ExpireAt: null });
    const log = await expectLogged(t, child.E_ID, 'enterprise_update');
    expect(JSON.parse(log.Summary)).toEqual({ E_Name: ['Old', 'New'], Quota: [1, 50] });
  });

  it.each([
    ['1 character', 'A'],
    ['33 characters', 'A'.repeat(33)],
    ['a space', 'AB CD'],
    ['a Chinese character', 'AB企业'],
  ])('refuses a code of %s (4000 enterprise.code_invalid)', async (_name, code) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/Enterprise/Save', { E_Code: code, E_Name: 'X' });
    expectFailure(res, 400, 4000, code.length > 32 ? 'validation.too_long' : 'enterprise.code_invalid');
  });

  it('refuses a code already used anywhere, in any case (4009 enterprise.code_exists)', async () => {
    const a = await tenant(t);
    const other = await tenant(t);
    expectFailure(
      await a.api.post('/api/Enterprise/Save', { E_Code: other.code, E_Name: 'X' }),
      409,
      4009,
      'enterprise.code_exists',
    );
    expectFailure(
      await a.api.post('/api/Enterprise/Save', { E_Code: other.code.toLowerCase(), E_Name: 'X' }),
      409,
      4009,
      'enterprise.code_exists',
    );
  });

  it('requires code and name on create; quota within 0-1000000', async () => {
    const a = await tenant(t);
    const res = expectFailure(await a.api.post('/api/Enterprise/Save', {}), 400, 4000);
    expect(res.Data).toEqual([
      { field: 'E_Code', key: 'validation.required' },
      { field: 'E_Name', key: 'validation.required' },
    ]);
    expectFailure(await a.api.post('/api/Enterprise/Save', { E_Code: newCode(), E_Name: 'Q', Quota: '-1' }), 400, 4000);
    expectFailure(
      await a.api.post('/api/Enterprise/Save', { E_Code: newCode(), E_Name: 'Q', Quota: '1000001' }),
      400,
      4000,
    );
    expectSuccess(await a.api.post('/api/Enterprise/Save', { E_Code: newCode(), E_Name: 'Q', Quota: '1000000' }));
  });

  it('refuses a quota below the users it already has (4009 enterprise.quota_below_users)', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID, quota: 10 });
    await addUser(child.api);
    await addUser(child.api);
    const res = await parent.api.post('/api/Enterprise/Save', { E_ID: String(child.E_ID), Quota: '1' });
    expect(expectFailure(res, 409, 4009, 'enterprise.quota_below_users').BaseResult.Params).toEqual({ users: 2 });
    expectSuccess(await parent.api.post('/api/Enterprise/Save', { E_ID: String(child.E_ID), Quota: '2' }));
  });

  it('refuses to edit the own enterprise (4003): its quota is the parent’s decision', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    expectFailure(
      await child.api.post('/api/Enterprise/Save', { E_ID: String(child.E_ID), Quota: '999' }),
      403,
      4003,
      'enterprise.own_readonly',
    );
  });

  it('answers 4004 for an enterprise outside the scope, and for a parent outside it', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(await a.api.post('/api/Enterprise/Save', { E_ID: String(b.E_ID), E_Name: 'Mine' }), 404, 4004);
    expectFailure(
      await a.api.post('/api/Enterprise/Save', { P_ID: String(b.E_ID), E_Code: newCode(), E_Name: 'X' }),
      404,
      4004,
    );
  });

  it('disabling a sub-enterprise ends the sessions of its accounts', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    expectSuccess(await child.api.get('/api/Account/LoginInfo'));
    expectSuccess(await parent.api.post('/api/Enterprise/Save', { E_ID: String(child.E_ID), Disabled: 'true' }));
    expectFailure(await child.api.get('/api/Account/LoginInfo'), 401, 1001);
  });

  it('is admin only (4003 for an editor), like the enterprise list', async () => {
    const e = await tenant(t, { role: 'editor' });
    expectFailure(
      await e.api.post('/api/Enterprise/Save', { E_Code: newCode(), E_Name: 'X' }),
      403,
      4003,
      'error.forbidden',
    );
    expectFailure(await e.api.get('/api/Enterprise/QueryData'), 403, 4003);
  });
});

describe('working enterprise', () => {
  it('switches the scope root to a sub-enterprise for this session, and back', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const grandchild = await tenant(t, { parentId: child.E_ID });

    const before = body<{ own: { E_ID: number }; working: { E_ID: number }; choices: { E_ID: number }[] }>(
      await parent.api.get('/api/Enterprise/Working'),
    );
    expect(before.working.E_ID).toBe(parent.E_ID);
    expect(before.choices.map((c) => c.E_ID)).toEqual([parent.E_ID, child.E_ID, grandchild.E_ID]);

    const switched = body<{ own: { E_ID: number }; working: { E_ID: number } }>(
      await parent.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(child.E_ID) }),
    );
    expect(switched).toMatchObject({ own: { E_ID: parent.E_ID }, working: { E_ID: child.E_ID } });
    await expectLogged(t, child.E_ID, 'enterprise_switch');

    // New things land in the working enterprise; the parent is now outside the scope.
    const user = await addUser(parent.api);
    expect(user.E_ID).toBe(child.E_ID);
    const dept = await addOrgan(parent.api);
    const row = await t.db.selectFrom('organ').select('E_ID').where('OSID', '=', dept).executeTakeFirstOrThrow();
    expect(row.E_ID).toBe(child.E_ID);
    expectFailure(await parent.api.get(`/api/Enterprise/Entitys/${parent.E_ID}`), 404, 4004);
    const tree = expectSuccess(await parent.api.get('/api/Organ/GetOrganizeList'));
    expect((tree.Data as { aid: string }[])[0]?.aid).toBe(`E${child.E_ID}`);

    // Still allowed to switch back up to anything of the own scope.
    body(await parent.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(parent.E_ID) }));
    expectSuccess(await parent.api.get(`/api/Enterprise/Entitys/${parent.E_ID}`));
    const session = await t.db
      .selectFrom('session')
      .select('WorkingE_ID')
      .where('A_ID', '=', parent.A_ID)
      .where('EndedAt', 'is', null)
      .executeTakeFirstOrThrow();
    expect(session.WorkingE_ID).toBeNull();
  });

  it('refuses an enterprise outside the own scope (4004) and keeps the current one', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const other = await tenant(t);
    expectFailure(await child.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(parent.E_ID) }), 404, 4004);
    expectFailure(await child.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(other.E_ID) }), 404, 4004);
    expectFailure(await child.api.post('/api/Enterprise/SwitchWorking', { E_ID: 'x' }), 400, 4000);
    const working = body<{ working: { E_ID: number } }>(await child.api.get('/api/Enterprise/Working'));
    expect(working.working.E_ID).toBe(child.E_ID);
  });

  it('editors switch too (their scope includes the sub-enterprises)', async () => {
    const parent = await tenant(t, { role: 'editor' });
    const child = await tenant(t, { parentId: parent.E_ID });
    expectSuccess(await parent.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(child.E_ID) }));
    const phone = uniquePhone();
    const user = body<{ E_ID: number }>(
      await parent.api.post('/api/UserInfo/UpdateUser', { UserName: 'E', MobilePhone: phone, Password: 'abc123' }),
    );
    expect(user.E_ID).toBe(child.E_ID);
    // The log row of the switch is the child's, written by the parent's account.
    const rows = await sysLogOf(t.db, child.E_ID);
    expect(rows.some((r) => r.Action === 'enterprise_switch' && r.Operator === parent.username)).toBe(true);
  });
});
