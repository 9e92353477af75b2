import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call, expectFailure, expectSuccess } from './helper.js';
import { addOrgan, addUser, body, tenant, uniqueIccid, uniquePhone, type Tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const ISSUE_3_ROUTES = [
  'GET /api/Enterprise/Entitys/:id',
  'GET /api/Enterprise/Working',
  'POST /api/Enterprise/SwitchWorking',
  'GET /api/Enterprise/QueryData',
  'GET /api/Enterprise/ExportData',
  'POST /api/Enterprise/Save',
  'GET /api/Organ/Entitys/:id',
  'GET /api/Organ/GetOrganizeList',
  'GET /api/Organ/QueryData',
  'GET /api/Organ/ExportData',
  'POST /api/Organ/Save',
  'DELETE /api/Organ/Delete/:id',
  'GET /api/UserInfo/QueryData',
  'GET /api/UserInfo/ExportData',
  'POST /api/UserInfo/Save',
  'DELETE /api/UserInfo/Delete/:id',
  'GET /api/UserInfo/Entitys/:id',
  'GET /api/UserInfo/Users',
  'GET /api/UserInfo/GetMyType',
  'POST /api/UserInfo/UpdateUser',
  'POST /api/UserInfo/BatchAdd',
  'POST /api/UserInfo/ListAdd',
  'POST /api/UserInfo/FreezeUser',
  'POST /api/UserInfo/UCapsSwitch',
  'POST /api/UserInfo/SaveLocationConfig',
  'POST /api/UserInfo/BChangeUser',
  'GET /api/UserInfo/QueryDeviceData',
  'POST /api/UserInfo/ImportICCID',
  'POST /api/UserInfo/MapICCID',
  'POST /api/UserInfo/FastMapICCID',
  'POST /api/UserInfo/NoneSeriesMap',
  'POST /api/UserInfo/RecoverDevice',
  'GET /api/Device/Entitys/:id',
  'GET /api/Device/QueryData',
  'GET /api/Device/ExportData',
  'POST /api/Device/Save',
  'DELETE /api/Device/Delete/:id',
  'GET /api/Account/QueryData',
  'GET /api/Account/ExportData',
  'POST /api/Account/Save',
  'DELETE /api/Account/Delete/:id',
  'GET /api/Account/Entitys/:id',
  'POST /api/Account/Disable',
  'POST /api/Account/ResetPassword',
  'GET /api/Account/Profile',
  'POST /api/Account/SaveProfile',
];

describe('issue 3 route table', () => {
  it('registers every route and documents it in the OpenAPI document', async () => {
    const routes = t.app.routeList.map((r) => `${r.method} ${r.url}`);
    for (const route of ISSUE_3_ROUTES) expect(routes).toContain(route);
    const doc = (await call(t.app, { method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, object> }>();
    for (const route of ISSUE_3_ROUTES) {
      const [method, url] = route.split(' ') as [string, string];
      const path = url.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(Object.keys(doc.paths[path] ?? {}), route).toContain(method.toLowerCase());
    }
  });
});

describe('roles', () => {
  it('an editor gets 4003 on the admin-only routes and nothing changes', async () => {
    const e = await tenant(t, { role: 'editor' });
    const child = await tenant(t, { parentId: e.E_ID });
    const admin = [
      e.api.get('/api/Enterprise/QueryData'),
      e.api.get('/api/Enterprise/ExportData'),
      e.api.post('/api/Enterprise/Save', { E_ID: String(child.E_ID), Quota: '999' }),
      e.api.get('/api/Account/QueryData'),
      e.api.post('/api/Account/Save', { LoginName: 'x', Password: 'Good#2026pw' }),
      e.api.get('/api/SysLog/QueryData'),
    ];
    for (const res of await Promise.all(admin)) expectFailure(res, 403, 4003, 'error.forbidden');
    const row = await t.db
      .selectFrom('enterprise')
      .select('Quota')
      .where('E_ID', '=', child.E_ID)
      .executeTakeFirstOrThrow();
    expect(row.Quota).toBe(100);
  });

  it('an editor does the day-to-day work: departments, users, devices, tree, profile', async () => {
    const e = await tenant(t, { role: 'editor' });
    const dept = await addOrgan(e.api);
    const user = await addUser(e.api, { OS_ID: dept });
    for (const url of [
      `/api/Enterprise/Entitys/${e.E_ID}`,
      '/api/Enterprise/Working',
      `/api/Organ/Entitys/${dept}`,
      '/api/Organ/GetOrganizeList',
      '/api/Organ/QueryData',
      '/api/UserInfo/QueryData',
      `/api/UserInfo/Entitys/${user.UserID}`,
      '/api/UserInfo/Users',
      '/api/UserInfo/GetMyType',
      '/api/UserInfo/QueryDeviceData',
      '/api/Device/QueryData',
      '/api/Account/Profile',
    ]) {
      expectSuccess(await e.api.get(url));
    }
  });
});

describe('admin reads', () => {
  it('exports enterprises, departments and accounts as CSV, and reads one account', async () => {
    const a = await tenant(t);
    await tenant(t, { parentId: a.E_ID });
    await addOrgan(a.api, { OSName: 'Exported dept' });
    const header = async (url: string) => {
      const res = await a.api.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      return res.body.split('\r\n').filter(Boolean);
    };
    expect((await header('/api/Enterprise/ExportData'))[0]).toBe(
      '\uFEFFE_ID,E_Code,E_Name,P_ID,A_ID,Quota,ExpireAt,Disabled,CreatedAt',
    );
    expect(await header('/api/Enterprise/ExportData')).toHaveLength(3);
    const organs = await header('/api/Organ/ExportData');
    expect(organs[1]).toContain('Exported dept');
    const accounts = await header('/api/Account/ExportData?format=csv');
    expect(accounts[0]).toBe('\uFEFFA_ID,E_ID,LoginName,Name,Mail,Role,Disabled,CreatedAt');
    expect(accounts.join('\n')).not.toContain('scrypt');
    const one = body<{ LoginName: string }>(await a.api.get(`/api/Account/Entitys/${a.A_ID}`));
    expect(one.LoginName).toBe(a.username);
  });
});

describe('every mutation of issue 3 writes a system-log row in the same enterprise', () => {
  it('logs each call', async () => {
    const a: Tenant = await tenant(t);
    const dept = await addOrgan(a.api);
    const user = await addUser(a.api, { ICCID: uniqueIccid() });
    const spare = await addUser(a.api);
    const other = await addUser(a.api);
    const device = body<{ D_ID: number }>(await a.api.post('/api/Device/Save', { ICCID: uniqueIccid() }));
    const account = body<{ A_ID: number }>(
      await a.api.post('/api/Account/Save', { LoginName: `acc${uniquePhone()}`, Password: 'Good#2026pw' }),
    );
    const start = `7${uniquePhone()}`.slice(0, 12);
    const mutations: [string, () => Promise<LightMyRequestResponse>][] = [
      [
        'enterprise_create',
        () => a.api.post('/api/Enterprise/Save', { E_Code: `L${uniquePhone()}`, E_Name: 'Logged' }),
      ],
      ['organ_create', () => a.api.post('/api/Organ/Save', { OSName: 'Logged dept' })],
      ['organ_update', () => a.api.post('/api/Organ/Save', { OSID: String(dept), OSName: 'Renamed dept' })],
      [
        'user_create',
        () => a.api.post('/api/UserInfo/UpdateUser', { UserName: 'L', MobilePhone: uniquePhone(), Password: 'abc123' }),
      ],
      ['user_update', () => a.api.post('/api/UserInfo/UpdateUser', { UserID: String(user.UserID), Remark: 'r' })],
      [
        'user_batch_create',
        () => a.api.post('/api/UserInfo/BatchAdd', { prefix: 'lg', start, count: '2', Password: 'abc123' }),
      ],
      [
        'user_list_create',
        () =>
          a.api.postJson('/api/UserInfo/ListAdd', {
            Password: 'abc123',
            rows: [{ UserName: 'LL', MobilePhone: uniquePhone() }],
          }),
      ],
      ['user_freeze', () => a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: user.MobilePhone, isLock: 'true' })],
      [
        'user_unfreeze',
        () => a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: user.MobilePhone, isLock: 'false' }),
      ],
      ['user_caps', () => a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: '1' })],
      [
        'user_location_config',
        () => a.api.post('/api/UserInfo/SaveLocationConfig', { uid: String(user.UserID), scValue: '' }),
      ],
      [
        'user_batch_change',
        () => a.api.post('/api/UserInfo/BChangeUser', { uids: String(user.UserID), priValue: '1' }),
      ],
      ['device_create', () => a.api.post('/api/Device/Save', { ICCID: uniqueIccid() })],
      ['device_update', () => a.api.post('/api/Device/Save', { D_ID: String(device.D_ID), NickName: 'n' })],
      [
        'iccid_import',
        () =>
          a.api.inject({
            method: 'POST',
            url: '/api/UserInfo/ImportICCID?fileName=l.txt',
            headers: { 'content-type': 'text/plain' },
            payload: uniqueIccid(),
          }),
      ],
      ['iccid_map', () => a.api.post('/api/UserInfo/MapICCID', { ICCID: uniqueIccid(), UserID: String(spare.UserID) })],
      ['iccid_fast_map', () => a.api.post('/api/UserInfo/FastMapICCID', { ICCIDs: uniqueIccid(), OS_ID: '' })],
      [
        'iccid_pairs_map',
        () =>
          a.api.postJson('/api/UserInfo/NoneSeriesMap', {
            pairs: [{ ICCID: uniqueIccid(), MobilePhone: other.MobilePhone }],
          }),
      ],
      ['device_recover', () => a.api.post('/api/UserInfo/RecoverDevice', { MobilePhone: user.MobilePhone })],
      ['device_delete', () => a.api.delete(`/api/Device/Delete/${device.D_ID}`)],
      ['user_delete', () => a.api.delete(`/api/UserInfo/Delete/${spare.UserID}`)],
      ['organ_delete', () => a.api.delete(`/api/Organ/Delete/${dept}`)],
      ['account_update', () => a.api.postJson('/api/Account/Save', { A_ID: account.A_ID, Name: 'n' })],
      ['account_disable', () => a.api.post('/api/Account/Disable', { A_ID: String(account.A_ID), Disabled: 'true' })],
      ['account_enable', () => a.api.post('/api/Account/Disable', { A_ID: String(account.A_ID), Disabled: 'false' })],
      [
        'account_reset_password',
        () => a.api.post('/api/Account/ResetPassword', { A_ID: String(account.A_ID), Password: 'Other#2026pw' }),
      ],
      ['account_delete', () => a.api.delete(`/api/Account/Delete/${account.A_ID}`)],
      ['profile_update', () => a.api.post('/api/Account/SaveProfile', { Name: 'Me', Mail: '' })],
      ['enterprise_switch', () => a.api.post('/api/Enterprise/SwitchWorking', { E_ID: String(a.E_ID) })],
    ];
    for (const [action, run] of mutations) {
      const before = await t.db.selectFrom('sys_log').select('L_ID').where('Action', '=', action).execute();
      expectSuccess(await run());
      const after = await t.db
        .selectFrom('sys_log')
        .select(['L_ID', 'Operator', 'IP', 'A_ID'])
        .where('Action', '=', action)
        .execute();
      expect(after.length, action).toBe(before.length + 1);
      expect(after.at(-1), action).toMatchObject({ Operator: a.username, A_ID: a.A_ID, IP: '127.0.0.1' });
    }
  });
});
