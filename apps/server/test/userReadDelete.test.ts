import type { UserRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, sysLogOf } from './helper.js';
import { addOrgan, addUser, body, countRows, expectLogged, tenant, uniqueIccid } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

describe('read and delete', () => {
  it('GET Entitys/{id} returns a user of the scope only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const mine = await addUser(a.api);
    const theirs = await addUser(b.api);
    expect(body<UserRow>(await a.api.get(`/api/UserInfo/Entitys/${mine.UserID}`)).UserID).toBe(mine.UserID);
    expectFailure(await a.api.get(`/api/UserInfo/Entitys/${theirs.UserID}`), 404, 4004, 'error.not_found');
  });

  it('GET Users lists an enterprise’s users lightly, or one of them; other enterprises are 4004', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const dept = await addOrgan(a.api);
    const u1 = await addUser(a.api, { OS_ID: dept });
    const u2 = await addUser(a.api);
    const all = expectSuccess(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}`));
    expect((all.Data as { UserID: number }[]).map((u) => u.UserID)).toEqual([u1.UserID, u2.UserID]);
    expect(Object.keys((all.Data as object[])[0] ?? {}).sort()).toEqual(
      ['E_ID', 'IsLock', 'MobilePhone', 'OS_ID', 'PriorityLevel', 'UType', 'UserID', 'UserName'].sort(),
    );
    const one = expectSuccess(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&userID=${u2.UserID}`));
    expect(one.Data).toHaveLength(1);
    const inDept = expectSuccess(await a.api.get(`/api/UserInfo/Users?OS_ID=${dept}`));
    expect((inDept.Data as { UserID: number }[]).map((u) => u.UserID)).toEqual([u1.UserID]);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${b.E_ID}`), 404, 4004);
    const theirs = await addUser(b.api);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&userID=${theirs.UserID}`), 404, 4004);
  });

  it('GET Users answers getUserList(E_ID, E_Code) and queryRequest(name, E_ID); a wrong code or a mismatch is 4004', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const { E_Code } = await t.db
      .selectFrom('enterprise')
      .select('E_Code')
      .where('E_ID', '=', a.E_ID)
      .executeTakeFirstOrThrow();
    const { E_Code: theirCode } = await t.db
      .selectFrom('enterprise')
      .select('E_Code')
      .where('E_ID', '=', b.E_ID)
      .executeTakeFirstOrThrow();
    const alice = await addUser(a.api, { UserName: 'Alice_Dock' });
    const bob = await addUser(a.api, { UserName: 'Bob%Gate' });
    const ids = (res: Parameters<typeof expectSuccess>[0]) =>
      (expectSuccess(res).Data as { UserID: number }[]).map((u) => u.UserID);

    const code = encodeURIComponent(E_Code.toLowerCase());
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_Code=${code}`))).toEqual([alice.UserID, bob.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_ID=${a.E_ID}&E_Code=${code}`))).toEqual([
      alice.UserID,
      bob.UserID,
    ]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_ID=${a.E_ID}&name=dock`))).toEqual([alice.UserID]);
    // LIKE's wildcards are plain text: "%" finds the name that has one, "_" only the one with "_".
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=${encodeURIComponent('b%g')}`))).toEqual([bob.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=${encodeURIComponent('e_d')}`))).toEqual([alice.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=nobody`))).toEqual([]);

    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=${encodeURIComponent(theirCode)}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=NO_SUCH_CODE_X`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_ID=${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&E_ID=${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_ID=abc`), 400, 4000);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=${'x'.repeat(65)}`), 400, 4000);
    expectFailure(await a.api.get(`/api/UserInfo/Users?name=${'n'.repeat(33)}`), 400, 4000);
  });

  it('deletes a user: frees a licence, returns the SIM to the inventory, drops memberships and its resume token; logged', async () => {
    const a = await tenant(t, { quota: 1 });
    const user = await addUser(a.api, { ICCID: uniqueIccid() });
    const channel = await t.db
      .insertInto('channel')
      .values({
        E_ID: a.E_ID,
        CName: 'ch',
        CTypeID: 106,
        Note: '',
        Priority: 0,
        VideoEnable: 0,
        Record: 0,
        CreatedAt: Date.now(),
      })
      .returning('CID')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('channel_member')
      .values({ CID: channel.CID, UserID: user.UserID, E_ID: a.E_ID, Priority: 0 })
      .execute();
    // The resume token its terminal's password login would have left (docs/terminal-protocol.md).
    await t.db
      .insertInto('terminal_resume')
      .values({ UserID: user.UserID, TokenHash: 'a'.repeat(64), ExpiresAt: Date.now() + 60_000 })
      .execute();
    expectSuccess(await a.api.delete(`/api/UserInfo/Delete/${user.UserID}`));
    const resume = await t.db.selectFrom('terminal_resume').selectAll().where('UserID', '=', user.UserID).execute();
    expect(resume).toEqual([]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    const device = await t.db
      .selectFrom('device')
      .select('UserID')
      .where('ICCID', '=', user.ICCID as string)
      .executeTakeFirstOrThrow();
    expect(device.UserID).toBeNull();
    const members = await t.db.selectFrom('channel_member').selectAll().where('CID', '=', channel.CID).execute();
    expect(members).toEqual([]);
    await expectLogged(t, a.E_ID, 'user_delete', user.MobilePhone);
    await addUser(a.api);
  });

  it('answers 4004 when deleting a user of another enterprise', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addUser(b.api);
    expectFailure(await a.api.delete(`/api/UserInfo/Delete/${theirs.UserID}`), 404, 4004);
    expect(await countRows(t, 'terminal_user', b.E_ID)).toBe(1);
    expect((await sysLogOf(t.db, b.E_ID)).filter((r) => r.Action === 'user_delete')).toEqual([]);
  });
});
