import { Code, MessageKeys } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, sysLogOf } from '../helper.js';
import { data, insertUsers, org, type Org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';
import { circleFence } from './circleFence.js';

// The fence caps of issue 48: GEOFENCE_MAX_PER_ENTERPRISE and GEOFENCE_MAX_PER_USER. A Save past
// either is a 4009 with the limit (and the user) in Params, and writes nothing.
const t = useTestApp({ env: { GEOFENCE_MAX_PER_ENTERPRISE: '4', GEOFENCE_MAX_PER_USER: '2' } });

const fence = (Name: string, fields: Record<string, unknown> = {}) => circleFence({ Name, ...fields });
const save = async (o: Org, body: Record<string, unknown>) =>
  data<{ GF_ID: number }>(await o.api.postJson('/api/Geofence/Save', body)).GF_ID;

/** Tables a refused Save must leave as they were: the fences, their targets and the system log. */
async function snapshot(E_ID: number) {
  return {
    fences: await t.db.selectFrom('geofence').selectAll().where('E_ID', '=', E_ID).orderBy('GF_ID').execute(),
    targets: await t.db.selectFrom('geofence_target').selectAll().where('E_ID', '=', E_ID).execute(),
    log: (await sysLogOf(t.db, E_ID)).length,
  };
}

async function expectCapped(o: Org, body: Record<string, unknown>, key: string, params: Record<string, unknown>) {
  const before = await snapshot(o.E_ID);
  const res = await o.api.postJson('/api/Geofence/Save', body);
  const envelope = expectFailure(res, 409, Code.Conflict, key);
  expect(envelope.BaseResult.Params).toEqual(params);
  expect(await snapshot(o.E_ID)).toEqual(before);
}

async function department(E_ID: number, OSParentID: number, OSName: string): Promise<number> {
  const row = await t.db
    .insertInto('organ')
    .values({ E_ID, OSParentID, OSName, U_TypeID: 0, PriorityLevel: 0 })
    .returning('OSID')
    .executeTakeFirstOrThrow();
  return row.OSID;
}

describe('geofence caps', () => {
  it('an enterprise holds at most GEOFENCE_MAX_PER_ENTERPRISE fences; editing one at the cap still works', async () => {
    const o = await org(t);
    const [u1, u2, u3, u4, u5] = await insertUsers(t, o.E_ID, 5);
    const ids = [];
    for (const [i, user] of [u1, u2, u3, u4].entries()) ids.push(await save(o, fence(`F${i}`, { UserIds: [user] })));
    await expectCapped(o, fence('One too many', { UserIds: [u5] }), MessageKeys.geofenceTooMany, { max: 4 });
    await save(o, fence('Renamed', { GF_ID: ids[0], UserIds: [u1, u5] }));
    // Another enterprise is not held back by this one's fences.
    const other = await org(t);
    expect(await save(other, fence('Elsewhere'))).toBeGreaterThan(0);
  });

  it('a user is in at most GEOFENCE_MAX_PER_USER fences: named, by department (with parents), or of the whole enterprise', async () => {
    const o = await org(t);
    const field = await department(o.E_ID, 0, 'Field');
    const night = await department(o.E_ID, field, 'Night shift');
    const [ann] = await insertUsers(t, o.E_ID, 1, { OS_ID: night, name: () => 'Ann Night' });
    const [bob] = await insertUsers(t, o.E_ID, 1, { name: () => 'Bob Office' });
    await save(o, fence('Whole enterprise'));
    await save(o, fence('Field', { DepartmentIds: [field] }));
    // Ann is in both already (Night shift is under Field): naming her, or her department, is one too many.
    const forAnn = { max: 2, name: 'Ann Night' };
    await expectCapped(o, fence('Ann', { UserIds: [ann] }), MessageKeys.geofenceTooManyForUser, forAnn);
    await expectCapped(o, fence('Night', { DepartmentIds: [night] }), MessageKeys.geofenceTooManyForUser, forAnn);
    // A second fence for the whole enterprise would put Ann in three.
    await expectCapped(o, fence('Everyone'), MessageKeys.geofenceTooManyForUser, forAnn);
    // Bob (no department) is in one: one more is fine, the next is refused.
    const bobs = await save(o, fence('Bob', { UserIds: [bob] }));
    await expectCapped(o, fence('Bob again', { UserIds: [bob] }), MessageKeys.geofenceTooManyForUser, {
      max: 2,
      name: 'Bob Office',
    });
    // Editing Bob's fence (its shape) adds nobody: it passes.
    await save(o, fence('Bob renamed', { GF_ID: bobs, UserIds: [bob], Radius: 300 }));
  });

  it('fences of the whole enterprise past the cap are refused even with no user yet', async () => {
    const o = await org(t);
    await save(o, fence('A'));
    await save(o, fence('B'));
    await expectCapped(o, fence('C'), MessageKeys.geofenceTooManyForEveryone, { max: 2 });
  });

  it('an edit that adds nobody passes even when a lowered setting left a user above the cap', async () => {
    const o = await org(t);
    const [user] = await insertUsers(t, o.E_ID, 1);
    // Three fences of the whole enterprise, written before the cap was 2.
    const now = Date.now();
    const rows = ['Old 1', 'Old 2', 'Old 3'].map((Name) => ({
      E_ID: o.E_ID,
      Name,
      Kind: 'circle',
      CenterLat: 22.54,
      CenterLon: 114.05,
      Radius: 200,
      Points: '',
      Enter: 1,
      Exit: 1,
      DwellMinutes: 0,
      CreatedAt: now,
      UpdatedAt: now,
    }));
    const [first] = await t.db.insertInto('geofence').values(rows).returning('GF_ID').execute();
    await save(o, fence('Old 1 renamed', { GF_ID: first!.GF_ID, Radius: 500 }));
    // Narrowing it to the user still adds nobody; widening it back to everyone adds them all.
    await save(o, fence('Old 1 narrowed', { GF_ID: first!.GF_ID, UserIds: [user] }));
    await expectCapped(o, fence('Old 1 wide', { GF_ID: first!.GF_ID }), MessageKeys.geofenceTooManyForEveryone, {
      max: 2,
    });
  });
});
