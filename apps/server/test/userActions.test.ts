// postgres: user updates and their transactions through the API.
import { USER_CAPS_MASK, UserCaps, type UserRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import type { TerminalSessionEnd } from '../src/core/terminalEvents.js';
import { expectFailure, expectSuccess } from './helper.js';
import { addOrgan, addUser, body, expectLogged, tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

async function row(api: Awaited<ReturnType<typeof tenant>>['api'], id: number) {
  return body<UserRow>(await api.get(`/api/UserInfo/Entitys/${id}`));
}

describe('POST /api/UserInfo/FreezeUser', () => {
  it('freezes (ending the terminal sessions) and unfreezes, logging both', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api);
    const ended: TerminalSessionEnd[] = [];
    const listener = (e: TerminalSessionEnd) => ended.push(e);
    t.app.terminalEvents.on('endSessions', listener);
    try {
      expectSuccess(await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: user.MobilePhone, isLock: 'true' }));
      expect((await row(a.api, user.UserID)).IsLock).toBe(1);
      await expectLogged(t, a.E_ID, 'user_freeze', user.MobilePhone);
      expectSuccess(await a.api.postJson('/api/UserInfo/FreezeUser', { MobilePhone: user.MobilePhone, isLock: false }));
      expect((await row(a.api, user.UserID)).IsLock).toBe(0);
      await expectLogged(t, a.E_ID, 'user_unfreeze', user.MobilePhone);
    } finally {
      t.app.terminalEvents.off('endSessions', listener);
    }
    expect(ended).toEqual([{ E_ID: a.E_ID, UserID: user.UserID, MobilePhone: user.MobilePhone, reason: 'frozen' }]);
  });

  it('answers 4004 for a phone of another enterprise, 4000 for a bad isLock', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: theirs.MobilePhone, isLock: '1' }),
      404,
      4004,
    );
    expect((await row(b.api, theirs.UserID)).IsLock).toBe(0);
    expectFailure(
      await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: theirs.MobilePhone, isLock: 'maybe' }),
      400,
      4000,
    );
    expectFailure(
      await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: theirs.MobilePhone }),
      400,
      4000,
      'validation.required',
    );
  });
});

describe('POST /api/UserInfo/UCapsSwitch', () => {
  it('sets the capability mask (one switch flipped by the console) and returns it', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api);
    expect(user.Caps).toBe(UserCaps.privateCall | UserCaps.gps);
    const withVideo = user.Caps | UserCaps.video;
    const res = body<{ Caps: number }>(
      await a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: String(withVideo) }),
    );
    expect(res.Caps).toBe(withVideo);
    expect((await row(a.api, user.UserID)).Caps).toBe(withVideo);
    const log = await expectLogged(t, a.E_ID, 'user_caps', user.MobilePhone);
    expect(JSON.parse(log.Summary)).toEqual({ Caps: [user.Caps, withVideo] });
    expectSuccess(
      await a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: String(USER_CAPS_MASK) }),
    );
    expectSuccess(await a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: '0' }));
  });

  it('refuses unknown bits (4000 user.caps_invalid) and phones outside the scope (4004)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const user = await addUser(a.api);
    expectFailure(
      await a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: String(USER_CAPS_MASK + 1) }),
      400,
      4000,
      'user.caps_invalid',
    );
    expectFailure(await a.api.post('/api/UserInfo/UCapsSwitch', { phone: user.MobilePhone, cap: '-1' }), 400, 4000);
    const theirs = await addUser(b.api);
    expectFailure(await a.api.post('/api/UserInfo/UCapsSwitch', { phone: theirs.MobilePhone, cap: '1' }), 404, 4004);
  });
});

describe('POST /api/UserInfo/SaveLocationConfig', () => {
  it('sets the GPS parameter of one user', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api);
    const scValue = '{"interval":60}';
    expectSuccess(
      await a.api.post('/api/UserInfo/SaveLocationConfig', {
        uid: String(user.UserID),
        phoneNumber: user.MobilePhone,
        scValue,
      }),
    );
    expect((await row(a.api, user.UserID)).GPSConfig).toBe(scValue);
    await expectLogged(t, a.E_ID, 'user_location_config', user.MobilePhone);
    expectSuccess(await a.api.post('/api/UserInfo/SaveLocationConfig', { uid: String(user.UserID), scValue: '' }));
    expect((await row(a.api, user.UserID)).GPSConfig).toBe('');
  });

  it('refuses a bad value (4000), a phone that is not the user’s or a user outside the scope (4004)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const user = await addUser(a.api);
    const other = await addUser(a.api);
    expectFailure(
      await a.api.post('/api/UserInfo/SaveLocationConfig', { uid: String(user.UserID), scValue: '{"interval":86401}' }),
      400,
      4000,
      'user.gps_invalid',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/SaveLocationConfig', {
        uid: String(user.UserID),
        phoneNumber: other.MobilePhone,
        scValue: '',
      }),
      404,
      4004,
    );
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/SaveLocationConfig', { uid: String(theirs.UserID), scValue: '' }),
      404,
      4004,
    );
  });
});

describe('POST /api/UserInfo/BChangeUser', () => {
  it('sets priority and department of a selection (comma list in a form)', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api);
    const u1 = await addUser(a.api);
    const u2 = await addUser(a.api);
    const untouched = await addUser(a.api);
    const res = body<{ changed: number }>(
      await a.api.post('/api/UserInfo/BChangeUser', {
        uids: `${u1.UserID},${u2.UserID}`,
        priValue: '7',
        mValue: String(dept),
      }),
    );
    expect(res.changed).toBe(2);
    for (const id of [u1.UserID, u2.UserID])
      expect(await row(a.api, id)).toMatchObject({ PriorityLevel: 7, OS_ID: dept });
    expect(await row(a.api, untouched.UserID)).toMatchObject({ PriorityLevel: 0, OS_ID: null });
    await expectLogged(t, a.E_ID, 'user_batch_change');
    // JSON array; mValue 0 takes them out of any department; blank priority leaves it.
    expectSuccess(await a.api.postJson('/api/UserInfo/BChangeUser', { uids: [u1.UserID], priValue: '', mValue: 0 }));
    expect(await row(a.api, u1.UserID)).toMatchObject({ PriorityLevel: 7, OS_ID: null });
  });

  it('refuses the whole selection when one id is outside the scope (4004), changing nothing', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const mine = await addUser(a.api);
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/BChangeUser', { uids: `${mine.UserID},${theirs.UserID}`, priValue: '3' }),
      404,
      4004,
    );
    expect((await row(a.api, mine.UserID)).PriorityLevel).toBe(0);
    expect((await row(b.api, theirs.UserID)).PriorityLevel).toBe(0);
  });

  it.each([
    [{ uids: '', priValue: '1' }, 'validation.required'],
    [{ uids: '1,x', priValue: '1' }, undefined],
    [{ uids: '1' }, 'validation.required'],
    [{ uids: '1', priValue: '8' }, 'validation.out_of_range'],
    [{ uids: '1', priValue: '-1' }, 'validation.out_of_range'],
  ])('refuses %j with 4000', async (form, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/BChangeUser', form), 400, 4000, key);
  });

  it('refuses more than 1000 users at once', async () => {
    const a = await tenant(t);
    const uids = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
    expectFailure(
      await a.api.post('/api/UserInfo/BChangeUser', { uids, priValue: '1' }),
      400,
      4000,
      'validation.too_many_items',
    );
  });

  it('refuses a department of another enterprise of the scope for those users (4000)', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const user = await addUser(parent.api);
    const childDept = await addOrgan(child.api);
    expectFailure(
      await parent.api.post('/api/UserInfo/BChangeUser', { uids: String(user.UserID), mValue: String(childDept) }),
      400,
      4000,
      'user.department_enterprise',
    );
  });
});
