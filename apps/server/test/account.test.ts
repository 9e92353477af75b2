import { SYS_CONFIG_CODES, SYS_CONFIG_DEFAULTS } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import {
  authed,
  createAccount,
  createEnterprise,
  expectFailure,
  expectSuccess,
  login,
  loginRaw,
  sysLogOf,
} from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const START_PASSWORD = 'Start#2026pw';

async function freshLogin(role: 'admin' | 'editor' = 'admin', parentId: number | null = null) {
  const enterprise = await createEnterprise(t.db, { parentId });
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role, password: START_PASSWORD });
  const credentials = { username: account.username, password: account.password, code: enterprise.code };
  const tokens = await login(t.app, credentials);
  return {
    ...enterprise,
    ...account,
    credentials,
    token: tokens.access_token,
    api: authed(t.app, tokens.access_token),
  };
}

function changePasswordUrl(oldPassword: string, newPassword: string): string {
  return `/api/Account/ChangePassword?${new URLSearchParams({ OldPassword: oldPassword, NewPassword: newPassword })}`;
}

async function canLogIn(credentials: { username: string; password: string; code: string }): Promise<boolean> {
  const res = await loginRaw(t.app, credentials);
  return res.statusCode === 200;
}

describe('ChangePassword', () => {
  it('refuses an empty current password with managent.lpsd_notempty', async () => {
    const a = await freshLogin();
    const res = await a.api.post(changePasswordUrl('', 'Next#2026pw'));
    const body = expectFailure(res, 400, 4000, 'managent.lpsd_notempty');
    expect(body.Data).toEqual([{ field: 'LPsd', key: 'managent.lpsd_notempty' }]);
  });

  it('refuses a missing OldPassword parameter the same way', async () => {
    const a = await freshLogin();
    const res = await a.api.post(`/api/Account/ChangePassword?NewPassword=${encodeURIComponent('Next#2026pw')}`);
    expectFailure(res, 400, 4000, 'managent.lpsd_notempty');
  });

  it.each([
    ['5 characters', 'Ab1#x'],
    ['17 characters', 'Abcdefgh12345678#'],
    ['only lowercase and digits', 'abcdef12'],
    ['only uppercase and other', 'ABCDEF!!'],
    ['only lowercase', 'abcdefghij'],
    ['a space inside', 'Ab1 xyz#'],
    ['empty', ''],
  ])('refuses a new password with %s (managent.lcpsd_notcorrect) and changes nothing', async (_name, candidate) => {
    const a = await freshLogin();
    const res = await a.api.post(changePasswordUrl(START_PASSWORD, candidate));
    const body = expectFailure(res, 400, 4000, 'managent.lcpsd_notcorrect');
    expect(body.Data).toEqual([{ field: 'Psd', key: 'managent.lcpsd_notcorrect' }]);
    // Nothing changed: the session lives on and the old password still logs in.
    expectSuccess(await a.api.get('/api/Account/LoginInfo'));
    expect(await canLogIn(a.credentials)).toBe(true);
    expect(await canLogIn({ ...a.credentials, password: candidate })).toBe(false);
  });

  it.each([
    ['6 characters with 3 classes', 'Ab1xyz'],
    ['16 characters with 3 classes', 'Abcdefgh12345678'],
    ['digits, lowercase and other', 'pass-2026'],
    ['Chinese counts as other and as one character each', '密码Ab12'],
  ])('accepts a new password of %s; the new one logs in, the old one does not', async (_name, candidate) => {
    const a = await freshLogin();
    expectSuccess(await a.api.post(changePasswordUrl(START_PASSWORD, candidate)));
    expect(await canLogIn({ ...a.credentials, password: candidate })).toBe(true);
    expect(await canLogIn(a.credentials)).toBe(false);
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const a = await freshLogin();
    const res = await a.api.post(changePasswordUrl('Wrong#2026pw', 'Next#2026pw'));
    const body = expectFailure(res, 400, 4000, 'managent.old_password_wrong');
    expect(body.Data).toEqual([{ field: 'LPsd', key: 'managent.old_password_wrong' }]);
    expectSuccess(await a.api.get('/api/Account/LoginInfo'));
    expect(await canLogIn(a.credentials)).toBe(true);
    expect(await canLogIn({ ...a.credentials, password: 'Next#2026pw' })).toBe(false);
  });

  it('refuses the same password as the current one', async () => {
    const a = await freshLogin();
    const res = await a.api.post(changePasswordUrl(START_PASSWORD, START_PASSWORD));
    expectFailure(res, 400, 4000, 'managent.same_password');
    expectSuccess(await a.api.get('/api/Account/LoginInfo'));
  });

  it('writes a system-log row without either password', async () => {
    const a = await freshLogin();
    expectSuccess(await a.api.post(changePasswordUrl(START_PASSWORD, 'Next#2026pw')));
    const rows = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'change_password');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ A_ID: a.A_ID, Operator: a.username, Target: a.username });
    const text = JSON.stringify(await sysLogOf(t.db, a.E_ID));
    expect(text).not.toContain('Next#2026pw');
    expect(text).not.toContain(START_PASSWORD);
  });

  it('ends the session for good: no open session is left and its refresh token is refused with 1001', async () => {
    const a = await freshLogin();
    const tokens = await login(t.app, a.credentials);
    const api = authed(t.app, tokens.access_token);
    expectSuccess(await api.post(changePasswordUrl(START_PASSWORD, 'Next#2026pw')));
    const open = await t.db
      .selectFrom('session')
      .select('S_ID')
      .where('A_ID', '=', a.A_ID)
      .where('EndedAt', 'is', null)
      .execute();
    expect(open).toEqual([]);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/UAuth/Refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json()).toMatchObject({ Code: 1001, Message: 'error.session_ended' });
  });
});

describe('SysConfig', () => {
  it('lists every known code with its default for a new enterprise', async () => {
    const a = await freshLogin('editor');
    const body = expectSuccess(await a.api.get('/api/Account/SysConfig'));
    expect(body.Data).toEqual(SYS_CONFIG_CODES.map((Code) => ({ Code, Value: SYS_CONFIG_DEFAULTS[Code] })));
    expect(body.Total).toBe(SYS_CONFIG_CODES.length);
  });
});

describe('ModifyConfig', () => {
  async function configOf(api: ReturnType<typeof authed>): Promise<Record<string, string>> {
    const body = expectSuccess(await api.get('/api/Account/SysConfig'));
    return Object.fromEntries((body.Data as { Code: string; Value: string }[]).map((e) => [e.Code, e.Value]));
  }

  it('denies an editor with 403 / 4003 and stores nothing', async () => {
    const a = await freshLogin('editor');
    const viaQuery = await a.api.post('/api/Account/ModifyConfig?scCode=DefaultMap&scValue=OSM');
    expectFailure(viaQuery, 403, 4003, 'error.forbidden');
    const viaForm = await a.api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: 'OSM' });
    expectFailure(viaForm, 403, 4003, 'error.forbidden');
    expect((await configOf(a.api)).DefaultMap).toBe('OFFLINE');
    const rows = await t.db.selectFrom('sys_config').selectAll().where('E_ID', '=', a.E_ID).execute();
    expect(rows).toEqual([]);
  });

  it('denies an editor the system log', async () => {
    const a = await freshLogin('editor');
    expectFailure(await a.api.get('/api/SysLog/QueryData'), 403, 4003, 'error.forbidden');
    expectFailure(await a.api.get('/api/SysLog/ExportData'), 403, 4003, 'error.forbidden');
  });

  it('refuses an unknown code and a missing code', async () => {
    const a = await freshLogin();
    const unknown = await a.api.post('/api/Account/ModifyConfig', { scCode: 'NoSuchCode', scValue: 'x' });
    expect(expectFailure(unknown, 400, 4000, 'config.unknown_code').Data).toEqual([
      { field: 'scCode', key: 'config.unknown_code' },
    ]);
    // Prototype names are not config codes either.
    const proto = await a.api.post('/api/Account/ModifyConfig', { scCode: 'constructor', scValue: 'x' });
    expectFailure(proto, 400, 4000, 'config.unknown_code');
    const missing = await a.api.post('/api/Account/ModifyConfig', { scValue: 'OSM' });
    expect(expectFailure(missing, 400, 4000).Data).toEqual([{ field: 'scCode', key: 'validation.required' }]);
    const rows = await t.db.selectFrom('sys_config').selectAll().where('E_ID', '=', a.E_ID).execute();
    expect(rows).toEqual([]);
  });

  it.each([
    ['DefaultMap', 'FOO'],
    ['DefaultMap', 'javascript:alert(1)'],
    ['DefaultMap', 'https://tiles.example.com/tile.png'],
    ['ChannelTypeID', '999'],
    ['ChannelTypeID', '103,103'],
    ['ChannelTypeID', ''],
    ['VideoEnable', 'yes'],
    ['RecordEnable', 'true'],
    ['WebChatConfig', 'not json'],
    ['WebChatConfig', '[1,2]'],
    ['SubjectBg', '../etc/passwd.png'],
    ['GPSServer', 'host name with spaces'],
    ['TalkMaxSeconds', '4'],
    ['TalkMaxSeconds', '601'],
    ['TalkMaxSeconds', '12.5'],
    ['TalkMaxSeconds', ''],
    ['TalkMaxSeconds', '-10'],
    ['DispatchPriority', '8'],
    ['DispatchPriority', '-1'],
    ['DispatchPriority', 'high'],
  ])('refuses %s = %j with 4000 and stores nothing', async (scCode, scValue) => {
    const a = await freshLogin();
    const before = await configOf(a.api);
    const res = await a.api.post('/api/Account/ModifyConfig', { scCode, scValue });
    expect(expectFailure(res, 400, 4000, 'config.bad_value').Data).toEqual([
      { field: 'scValue', key: 'config.bad_value' },
    ]);
    expect(await configOf(a.api)).toEqual(before);
    const rows = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'modify_config');
    expect(rows).toEqual([]);
  });

  it.each([
    ['DefaultMap', 'OSM'],
    ['DefaultMap', 'https://tiles.example.com/{z}/{x}/{y}.png'],
    ['ChannelTypeID', '103,106'],
    ['VideoEnable', 'TRUE'],
    ['WebChatConfig', '{"server":"chat.example.com"}'],
    ['GPSServer', 'gps.example.com:9000'],
  ])('stores %s = %j, shows it in SysConfig and logs before and after', async (scCode, scValue) => {
    const a = await freshLogin();
    const before = (await configOf(a.api))[scCode];
    expect(expectSuccess(await a.api.post('/api/Account/ModifyConfig', { scCode, scValue })).BaseResult.Message).toBe(
      'common.oper_success',
    );
    expect((await configOf(a.api))[scCode]).toBe(scValue);
    const rows = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'modify_config');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ A_ID: a.A_ID, Operator: a.username, Target: scCode, IP: '127.0.0.1' });
    expect(JSON.parse(rows[0]?.Summary ?? '')).toEqual({ before, after: scValue });
  });

  it('accepts scCode and scValue in the query string and as JSON, and logs each change', async () => {
    const a = await freshLogin();
    expectSuccess(await a.api.post('/api/Account/ModifyConfig?scCode=VideoEnable&scValue=TRUE'));
    expect((await configOf(a.api)).VideoEnable).toBe('TRUE');
    expectSuccess(await a.api.postJson('/api/Account/ModifyConfig', { scCode: 'VideoEnable', scValue: 'FALSE' }));
    expect((await configOf(a.api)).VideoEnable).toBe('FALSE');
    const summaries = (await sysLogOf(t.db, a.E_ID))
      .filter((r) => r.Action === 'modify_config')
      .map((r) => JSON.parse(r.Summary) as unknown);
    expect(summaries).toEqual([
      { before: 'FALSE', after: 'TRUE' },
      { before: 'TRUE', after: 'FALSE' },
    ]);
  });

  it("changes only the caller's enterprise", async () => {
    const a = await freshLogin();
    const b = await freshLogin();
    expectSuccess(await a.api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: 'NONE' }));
    expect((await configOf(a.api)).DefaultMap).toBe('NONE');
    expect((await configOf(b.api)).DefaultMap).toBe('OFFLINE');
  });
});
