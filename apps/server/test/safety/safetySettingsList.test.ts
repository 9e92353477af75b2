import { Code, MessageKeys, SafetyLogActions, type SafetySettingRow, type SafetySettings } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure } from '../helper.js';
import { data, insertUsers, logged, org, rows, type Org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';

// GET /api/Safety/QueryData and POST /api/Safety/Delete (issue 32): the stored settings rows.
const t = useTestApp();

const valid = { CheckInMinutes: 30, GraceMinutes: 5, NoMovementMinutes: 15, NoMovementMeters: 20 };
const save = async (who: Org, body: object) =>
  data(await who.api.postJson('/api/Safety/Settings', { ...valid, ...body }));
const remove = (who: Org, body: unknown) => who.api.postJson('/api/Safety/Delete', body);
const list = async (who: Org, params = '') =>
  rows<SafetySettingRow>(await who.api.get(`/api/Safety/QueryData?${params}`));
const settingRows = () => t.db.selectFrom('safety_setting').selectAll().orderBy('TargetID').execute();
const fieldOf = (body: unknown) => ((body as { Data: { field: string; key: string }[] }).Data ?? [])[0];

async function department(E_ID: number, name: string): Promise<number> {
  const row = await t.db
    .insertInto('organ')
    .values({ E_ID, OSParentID: 0, OSName: name, U_TypeID: 0, PriorityLevel: 0 })
    .returning('OSID')
    .executeTakeFirstOrThrow();
  return row.OSID;
}

/** An enterprise with settings for itself, one department and one user. */
async function seeded() {
  const o = await org(t);
  const dept = await department(o.E_ID, 'Night shift');
  const [user] = await insertUsers(t, o.E_ID, 1, { name: () => 'Alma Ruiz' });
  await save(o, { CheckInMinutes: 60 });
  await save(o, { DepartmentIds: [dept], CheckInMinutes: 20 });
  await save(o, { UserIds: [user], CheckInMinutes: 0, GraceMinutes: 2 });
  return { o, dept, user: user! };
}

describe('GET /api/Safety/QueryData', () => {
  it('lists the scope’s settings with their key and the name of what they apply to', async () => {
    const { o, dept, user } = await seeded();
    const other = await seeded();
    const enterprise = await t.db
      .selectFrom('enterprise')
      .select('E_Name')
      .where('E_ID', '=', o.E_ID)
      .executeTakeFirst();
    const { rows: found, total } = await list(o, 'orderField=CheckInMinutes&desc=false');
    expect(total).toBe(3);
    expect(found.map((r) => [r.Key, r.Name, r.CheckInMinutes])).toEqual([
      [`user:${user}`, 'Alma Ruiz', 0],
      [`department:${dept}`, 'Night shift', 20],
      [`enterprise:${o.E_ID}`, enterprise?.E_Name, 60],
    ]);
    expect(found[0]).toMatchObject({ TargetKind: 'user', TargetID: user, E_ID: o.E_ID, GraceMinutes: 2 });
    expect(found.some((r) => r.E_ID === other.o.E_ID)).toBe(false);
  });

  it('filters, sorts and pages like the other lists, and refuses an unknown field', async () => {
    const { o, dept } = await seeded();
    const byKind = await list(o, `jsonCondition=${encodeURIComponent('{"TargetKind":"department"}')}`);
    expect(byKind.rows.map((r) => r.Key)).toEqual([`department:${dept}`]);
    const sorted = await list(o, 'orderField=CheckInMinutes&desc=false&pageSize=2&pageIndex=0');
    expect(sorted.total).toBe(3);
    expect(sorted.rows.map((r) => r.CheckInMinutes)).toEqual([0, 20]);
    const cond = encodeURIComponent('{"Secret":1}');
    expectFailure(await o.api.get(`/api/Safety/QueryData?jsonCondition=${cond}`), 400, Code.Validation);
    expectFailure(await o.api.get('/api/Safety/QueryData?orderField=Nope'), 400, Code.Validation);
  });
});

describe('POST /api/Safety/Delete', () => {
  it('removes rows by key with a system-log row each; the user falls back to the next settings', async () => {
    const { o, dept, user } = await seeded();
    await t.db.updateTable('terminal_user').set({ OS_ID: dept }).where('UserID', '=', user).execute();
    const inForce = async () => data<SafetySettings>(await o.api.get(`/api/Safety/Settings?U_ID=${user}`));
    expect((await inForce()).Source).toBe('user');
    data(await remove(o, { ids: [`user:${user}`] }));
    expect(await inForce()).toMatchObject({ Source: 'department', CheckInMinutes: 20 });
    data(await remove(o, { ids: [`department:${dept}`, `enterprise:${o.E_ID}`] }));
    expect(await inForce()).toMatchObject({ Source: 'none', CheckInMinutes: 0 });
    expect((await list(o)).total).toBe(0);
    const log = await logged(t, o.E_ID, SafetyLogActions.delete);
    expect(log.map((r) => r.Target).sort()).toEqual([`department ${dept}`, `enterprise ${o.E_ID}`, `user ${user}`]);
  });

  it('refuses bad keys and another enterprise’s rows, removing nothing', async () => {
    const { o, user } = await seeded();
    const other = await seeded();
    const before = await settingRows();
    const refused = async (body: unknown, status: number, code: number) => {
      const envelope = expectFailure(await remove(o, body), status, code);
      expect(await settingRows()).toEqual(before);
      return envelope;
    };
    // Another enterprise's row, even next to one of ours: 4004, as if it did not exist.
    await refused({ ids: [`user:${user}`, `user:${other.user}`] }, 404, Code.NotFound);
    await refused({ ids: [`enterprise:${other.o.E_ID}`] }, 404, Code.NotFound);
    await refused({ ids: [`department:${other.dept}`] }, 404, Code.NotFound);
    await refused({ ids: ['user:2147483000'] }, 404, Code.NotFound);
    for (const bad of ['user:0', 'user:-1', 'group:3', 'user:1.5', 'user', '', 12])
      expect(fieldOf(await refused({ ids: [bad] }, 400, Code.Validation))?.key).toBe(MessageKeys.invalid);
    expect(fieldOf(await refused({ ids: [] }, 400, Code.Validation))?.key).toBe(MessageKeys.required);
    expect(fieldOf(await refused({}, 400, Code.Validation))?.key).toBe(MessageKeys.required);
    const many = Array.from({ length: 1001 }, (_, i) => `user:${i + 1}`);
    expect(fieldOf(await refused({ ids: many }, 400, Code.Validation))?.key).toBe(MessageKeys.tooManyItems);
    expect(await logged(t, o.E_ID, SafetyLogActions.delete)).toEqual([]);
  });
});
