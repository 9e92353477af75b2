import { Code, MessageKeys, SafetyLogActions, type SafetySettings } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../helper.js';
import { data, insertUsers, logged, org, type Org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';

// POST /api/Safety/Settings and GET /api/Safety/Settings?U_ID= (issue 32).
const t = useTestApp();
let a: Org;

beforeAll(async () => {
  a = await org(t);
});

const valid = { CheckInMinutes: 30, GraceMinutes: 5, NoMovementMinutes: 15, NoMovementMeters: 20 };
const save = (who: Org, body: unknown) => who.api.postJson('/api/Safety/Settings', body);
const settingsOf = async (who: Org, U_ID: number) =>
  data<SafetySettings>(await who.api.get(`/api/Safety/Settings?U_ID=${U_ID}`));
const fieldOf = (body: unknown) => ((body as { Data: { field: string; key: string }[] }).Data ?? [])[0];
const settingRows = () => t.db.selectFrom('safety_setting').selectAll().orderBy('TargetID').execute();

async function department(E_ID: number, name: string, parent = 0): Promise<number> {
  const row = await t.db
    .insertInto('organ')
    .values({ E_ID, OSParentID: parent, OSName: name, U_TypeID: 0, PriorityLevel: 0 })
    .returning('OSID')
    .executeTakeFirstOrThrow();
  return row.OSID;
}

/** A refused call: the status, code and message, and not one settings row changed. */
async function expectRefused(who: Org, body: unknown, status: number, code: number, key?: string) {
  const before = await settingRows();
  const envelope = expectFailure(await save(who, body), status, code, key);
  expect(await settingRows()).toEqual(before);
  return envelope;
}

describe('POST /api/Safety/Settings', () => {
  it('applies the most specific settings: the user, then the nearest department, then the enterprise', async () => {
    const o = await org(t);
    const top = await department(o.E_ID, 'Field');
    const sub = await department(o.E_ID, 'Night shift', top);
    const [own, inSub, loose] = await insertUsers(t, o.E_ID, 3);
    await t.db.updateTable('terminal_user').set({ OS_ID: sub }).where('UserID', 'in', [own!, inSub!]).execute();
    expect(await settingsOf(o, loose!)).toMatchObject({ Source: 'none', CheckInMinutes: 0, NoMovementMinutes: 0 });

    data(await save(o, { ...valid, CheckInMinutes: 60 }));
    data(await save(o, { ...valid, DepartmentIds: [top], CheckInMinutes: 20 }));
    data(await save(o, { UserIds: [own], CheckInMinutes: 0, GraceMinutes: 1, NoMovementMinutes: 5 }));

    expect(await settingsOf(o, loose!)).toEqual({ U_ID: loose, ...valid, CheckInMinutes: 60, Source: 'enterprise' });
    expect(await settingsOf(o, inSub!)).toEqual({ U_ID: inSub, ...valid, CheckInMinutes: 20, Source: 'department' });
    // NoMovementMeters left out: the default, 10 m.
    expect(await settingsOf(o, own!)).toEqual({
      U_ID: own,
      CheckInMinutes: 0,
      GraceMinutes: 1,
      NoMovementMinutes: 5,
      NoMovementMeters: 10,
      Source: 'user',
    });
    // Saving again replaces, it does not add.
    data(await save(o, { ...valid, DepartmentIds: [top], CheckInMinutes: 25 }));
    expect((await settingsOf(o, inSub!)).CheckInMinutes).toBe(25);
    const log = await logged(t, o.E_ID, SafetyLogActions.settings);
    expect(log.map((r) => r.Target)).toEqual([
      'enterprise',
      '0 users, 1 departments',
      '1 users, 0 departments',
      '0 users, 1 departments',
    ]);
  });

  it.each([
    ['CheckInMinutes', { CheckInMinutes: 721 }, MessageKeys.outOfRange],
    ['CheckInMinutes', { CheckInMinutes: -1 }, MessageKeys.outOfRange],
    ['CheckInMinutes', { CheckInMinutes: 1.5 }, MessageKeys.notNumber],
    ['CheckInMinutes', { CheckInMinutes: '30' }, MessageKeys.notNumber],
    ['GraceMinutes', { GraceMinutes: 0 }, MessageKeys.outOfRange],
    ['GraceMinutes', { GraceMinutes: 61 }, MessageKeys.outOfRange],
    ['NoMovementMinutes', { NoMovementMinutes: 721 }, MessageKeys.outOfRange],
    ['NoMovementMeters', { NoMovementMeters: 4 }, MessageKeys.outOfRange],
    ['NoMovementMeters', { NoMovementMeters: 501 }, MessageKeys.outOfRange],
  ])('refuses %s out of range or not a whole number (%j)', async (field, change, key) => {
    const body = await expectRefused(a, { ...valid, ...change }, 400, Code.Validation);
    expect(fieldOf(body)).toEqual({ field, key });
  });

  it('refuses a missing field, an unknown user, and a body that is not JSON', async () => {
    const { GraceMinutes: _g, ...noGrace } = valid;
    expect(fieldOf(await expectRefused(a, noGrace, 400, Code.Validation))?.field).toBe('GraceMinutes');
    await expectRefused(a, { ...valid, UserIds: [2 ** 31 - 2] }, 404, Code.NotFound, MessageKeys.notFound);
    const before = await settingRows();
    const res = await a.api.inject({
      method: 'POST',
      url: '/api/Safety/Settings',
      headers: { 'content-type': 'application/json' },
      payload: '{"CheckInMinutes": 30,',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ BaseResult: { Code: number } }>().BaseResult.Code).toBe(Code.Validation);
    expect(await settingRows()).toEqual(before);
  });

  it("refuses another enterprise's users and departments (4004) and a sub-enterprise's users (4000)", async () => {
    const other = await org(t);
    const [stranger] = await insertUsers(t, other.E_ID, 1);
    const theirs = await department(other.E_ID, 'Theirs');
    await expectRefused(a, { ...valid, UserIds: [stranger] }, 404, Code.NotFound, MessageKeys.notFound);
    await expectRefused(a, { ...valid, DepartmentIds: [theirs] }, 404, Code.NotFound);
    await expectRefused(a, { ...valid, E_ID: other.E_ID }, 404, Code.NotFound);
    const child = await org(t, { parentId: a.E_ID });
    const [childUser] = await insertUsers(t, child.E_ID, 1);
    const body = await expectRefused(a, { ...valid, UserIds: [childUser] }, 400, Code.Validation);
    expect(fieldOf(body)).toEqual({ field: 'UserIds', key: MessageKeys.channelMemberEnterprise });
    // Naming the sub-enterprise works; the sub-enterprise cannot reach up.
    data(await save(a, { ...valid, E_ID: child.E_ID, UserIds: [childUser] }));
    expect((await settingsOf(a, childUser!)).Source).toBe('user');
    await expectRefused(child, { ...valid, E_ID: a.E_ID }, 404, Code.NotFound);
  });
});

describe('GET /api/Safety/Settings', () => {
  it('refuses an unknown user, a user of another enterprise, and a U_ID that is not an id', async () => {
    const other = await org(t);
    const [stranger] = await insertUsers(t, other.E_ID, 1);
    expectFailure(await a.api.get(`/api/Safety/Settings?U_ID=${stranger}`), 404, Code.NotFound, MessageKeys.notFound);
    expectFailure(await a.api.get('/api/Safety/Settings?U_ID=2147483000'), 404, Code.NotFound);
    for (const bad of ['', 'abc', '0', '-3', '1.5', '99999999999'])
      expectFailure(await a.api.get(`/api/Safety/Settings?U_ID=${bad}`), 400, Code.Validation);
    expectFailure(await a.api.get('/api/Safety/Settings'), 400, Code.Validation);
  });
});
