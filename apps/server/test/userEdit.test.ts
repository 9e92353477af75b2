import type { UserRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import type { TerminalSessionEnd } from '../src/core/terminalEvents.js';
import { expectFailure } from './helper.js';
import { addUser, body, expectLogged, tenant, uniqueIccid } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

describe('edit a user', () => {
  it('changes only the fields sent, logs before/after, and a new password ends the terminal sessions', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { UserName: 'Before', PriorityLevel: 1, Remark: 'keep' });
    const ended: TerminalSessionEnd[] = [];
    const listener = (e: TerminalSessionEnd) => ended.push(e);
    t.app.terminalEvents.on('endSessions', listener);
    try {
      const edited = body<UserRow>(
        await a.api.post('/api/UserInfo/UpdateUser', {
          UserID: String(user.UserID),
          UserName: 'After',
          Password: 'newpass1',
        }),
      );
      expect(edited).toMatchObject({
        UserName: 'After',
        PriorityLevel: 1,
        Remark: 'keep',
        MobilePhone: user.MobilePhone,
      });
    } finally {
      t.app.terminalEvents.off('endSessions', listener);
    }
    expect(ended).toEqual([{ E_ID: a.E_ID, UserID: user.UserID, MobilePhone: user.MobilePhone, reason: 'password' }]);
    const log = await expectLogged(t, a.E_ID, 'user_update', user.MobilePhone);
    expect(JSON.parse(log.Summary)).toEqual({ UserName: ['Before', 'After'], Password: 'changed' });
  });

  it('moves the SIM: a new ICCID returns the old one to the inventory; an empty ICCID unbinds', async () => {
    const a = await tenant(t);
    const first = uniqueIccid();
    const second = uniqueIccid(20);
    const user = await addUser(a.api, { ICCID: first });
    const moved = body<UserRow>(await a.api.postJson('/api/UserInfo/Save', { UserID: user.UserID, ICCID: second }));
    expect(moved.ICCID).toBe(second);
    const devices = await t.db
      .selectFrom('device')
      .select(['ICCID', 'UserID'])
      .where('E_ID', '=', a.E_ID)
      .orderBy('D_ID')
      .execute();
    expect(devices).toEqual([
      { ICCID: first, UserID: null },
      { ICCID: second, UserID: user.UserID },
    ]);
    const cleared = body<UserRow>(await a.api.postJson('/api/UserInfo/Save', { UserID: user.UserID, ICCID: '' }));
    expect(cleared.ICCID).toBeNull();
    const after = await t.db
      .selectFrom('device')
      .select('UserID')
      .where('ICCID', '=', second)
      .executeTakeFirstOrThrow();
    expect(after.UserID).toBeNull();
  });

  it('refuses taking another user’s phone or name, moving to another enterprise, or a user outside the scope', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const one = await addUser(a.api, { UserName: 'One' });
    const two = await addUser(a.api, { UserName: 'Two' });
    const id = String(two.UserID);
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, MobilePhone: one.MobilePhone }),
      409,
      4009,
      'user.phone_exists',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, UserName: 'One' }),
      409,
      4009,
      'common.name_exists',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, E_ID: String(b.E_ID) }),
      400,
      4000,
      'user.enterprise_fixed',
    );
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: String(theirs.UserID), UserName: 'Mine' }),
      404,
      4004,
    );
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', { UserID: '2147483647', UserName: 'Ghost' }), 404, 4004);
    const unchanged = body<UserRow>(await b.api.get(`/api/UserInfo/Entitys/${theirs.UserID}`));
    expect(unchanged.UserName).toBe(theirs.UserName);
  });
});
