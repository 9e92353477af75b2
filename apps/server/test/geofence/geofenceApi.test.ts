import { Code, GeofenceLogActions, MessageKeys, type GeofenceRow } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectFailure } from '../helper.js';
import { colleague, data, insertUsers, logged, org, rows, type Org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';
import { circleFence } from './circleFence.js';

// POST /api/Geofence/Save, GET /api/Geofence/QueryData, POST /api/Geofence/Delete (issue 32).
const t = useTestApp();
let a: Org;

beforeAll(async () => {
  a = await org(t);
});

const square = [
  [22.5, 114.0],
  [22.5, 114.1],
  [22.6, 114.1],
  [22.6, 114.0],
];
const save = (who: Org, body: unknown) => who.api.postJson('/api/Geofence/Save', body);
const fenceCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('geofence')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every refused call leaves the tables as they were. */
async function expectRefused(
  who: Org,
  body: unknown,
  status: number,
  code: number,
  key?: string,
): Promise<Record<string, unknown>> {
  const before = await fenceCount();
  const targets = await t.db.selectFrom('geofence_target').selectAll().execute();
  const res = await save(who, body);
  const envelope = expectFailure(res, status, code, key);
  expect(await fenceCount()).toBe(before);
  expect(await t.db.selectFrom('geofence_target').selectAll().execute()).toEqual(targets);
  return envelope as unknown as Record<string, unknown>;
}

describe('Geofence Save', () => {
  it('creates a circle and a polygon; QueryData lists them with their shape and targets; the log has rows', async () => {
    const [u1, u2] = await insertUsers(t, a.E_ID, 2);
    const c = data<{ GF_ID: number }>(await save(a, circleFence({ UserIds: [u1, u2], DwellMinutes: 15 })));
    const p = data<{ GF_ID: number }>(
      await save(a, { Name: 'Yard', Kind: 'polygon', Points: square, Enter: false, Exit: true }),
    );
    expect(c.GF_ID).toBeGreaterThan(0);
    const list = rows<GeofenceRow>(await a.api.get('/api/Geofence/QueryData?orderField=Name'));
    expect(list.total).toBe(2);
    expect(list.rows).toEqual([
      expect.objectContaining({
        GF_ID: c.GF_ID,
        Name: 'Depot',
        Kind: 'circle',
        Center: [22.54, 114.05],
        Radius: 200,
        Points: null,
        DwellMinutes: 15,
        UserIds: [u1, u2].sort((x, y) => x! - y!),
        DepartmentIds: [],
      }),
      expect.objectContaining({ GF_ID: p.GF_ID, Name: 'Yard', Points: square, Center: null, Enter: false }),
    ]);
    expect((await logged(t, a.E_ID, GeofenceLogActions.create)).map((r) => r.Target).sort()).toEqual(['Depot', 'Yard']);
  });

  it('edits a fence in place: the new shape and targets replace the old, with an update row', async () => {
    const { GF_ID } = data<{ GF_ID: number }>(await save(a, circleFence({ Name: 'Edit me' })));
    const organ = await t.db
      .insertInto('organ')
      .values({ E_ID: a.E_ID, OSParentID: 0, OSName: 'Drivers', U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow();
    data(
      await save(a, {
        GF_ID,
        Name: 'Edited',
        Kind: 'polygon',
        Points: square,
        Enter: true,
        Exit: false,
        DepartmentIds: [organ.OSID],
      }),
    );
    const list = rows<GeofenceRow>(
      await a.api.get(`/api/Geofence/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ GF_ID }))}`),
    );
    expect(list.rows).toEqual([
      expect.objectContaining({
        Name: 'Edited',
        Kind: 'polygon',
        Center: null,
        Radius: null,
        DepartmentIds: [organ.OSID],
      }),
    ]);
    const [row] = await logged(t, a.E_ID, GeofenceLogActions.update);
    expect(row?.Target).toBe('Edit me');
    expect(JSON.parse(row?.Summary ?? '{}')).toMatchObject({
      Name: ['Edit me', 'Edited'],
      Kind: ['circle', 'polygon'],
    });
  });

  it('an editor may save; without a token the call is refused', async () => {
    const editor = await colleague(t, a, 'editor');
    expect(data<{ GF_ID: number }>(await save(editor, circleFence({ Name: 'By editor' }))).GF_ID).toBeGreaterThan(0);
    const before = await fenceCount();
    const res = await call(t.app, { method: 'POST', url: '/api/Geofence/Save', payload: circleFence() });
    expectFailure(res, 401, Code.TokenMissing);
    const bad = await call(t.app, {
      method: 'POST',
      url: '/api/Geofence/Save',
      payload: circleFence(),
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.statusCode).toBe(401);
    expect(await fenceCount()).toBe(before);
  });

  const fieldOf = (body: Record<string, unknown>) => (body.Data as { field: string; key: string }[])[0];

  it('refuses a self-intersecting polygon (a bow tie) with a field error', async () => {
    const bowTie = [
      [22.5, 114.0],
      [22.6, 114.1],
      [22.5, 114.1],
      [22.6, 114.0],
    ];
    const body = await expectRefused(
      a,
      { Name: 'Bow', Kind: 'polygon', Points: bowTie, Enter: true, Exit: true },
      400,
      Code.Validation,
    );
    expect(fieldOf(body)).toEqual({ field: 'Points', key: MessageKeys.selfIntersecting });
  });

  it('refuses 501 points, 2 points, radius 0, radius 100001, dwell 1441 and a circle without a centre', async () => {
    const ring = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        22.5 + 0.01 * Math.sin((2 * Math.PI * i) / n),
        114 + 0.01 * Math.cos((2 * Math.PI * i) / n),
      ]);
    // 500 points on a circle pass; one more is refused.
    expect(
      data<{ GF_ID: number }>(
        await save(a, { Name: 'Ring', Kind: 'polygon', Points: ring(500), Enter: true, Exit: true }),
      ).GF_ID,
    ).toBeGreaterThan(0);
    const cases: [unknown, string, string][] = [
      [{ Name: 'R', Kind: 'polygon', Points: ring(501), Enter: true, Exit: true }, 'Points', MessageKeys.tooManyItems],
      [{ Name: 'R', Kind: 'polygon', Points: ring(2), Enter: true, Exit: true }, 'Points', MessageKeys.tooShort],
      [circleFence({ Radius: 0 }), 'Radius', MessageKeys.outOfRange],
      [circleFence({ Radius: 100_001 }), 'Radius', MessageKeys.outOfRange],
      [circleFence({ DwellMinutes: 1441 }), 'DwellMinutes', MessageKeys.outOfRange],
      [circleFence({ Center: undefined }), 'Center', MessageKeys.required],
      [circleFence({ Center: [91, 0] }), 'Center.0', MessageKeys.outOfRange],
      [circleFence({ Kind: 'square' }), 'Kind', MessageKeys.invalid],
      [circleFence({ Name: '' }), 'Name', MessageKeys.required],
    ];
    for (const [body, field, key] of cases) {
      const refused = await expectRefused(a, body, 400, Code.Validation);
      expect(fieldOf(refused), JSON.stringify(body).slice(0, 80)).toEqual({ field, key });
    }
  });

  it("refuses another enterprise's users and departments (4004) and a sub-enterprise's users (4000)", async () => {
    const other = await org(t);
    const [stranger] = await insertUsers(t, other.E_ID, 1);
    const strangeOrgan = await t.db
      .insertInto('organ')
      .values({ E_ID: other.E_ID, OSParentID: 0, OSName: 'Theirs', U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow();
    await expectRefused(a, circleFence({ UserIds: [stranger] }), 404, Code.NotFound, MessageKeys.notFound);
    await expectRefused(a, circleFence({ DepartmentIds: [strangeOrgan.OSID] }), 404, Code.NotFound);
    const child = await org(t, { parentId: a.E_ID });
    const [childUser] = await insertUsers(t, child.E_ID, 1);
    const body = await expectRefused(a, circleFence({ UserIds: [childUser] }), 400, Code.Validation);
    expect(fieldOf(body)).toEqual({ field: 'UserIds', key: MessageKeys.channelMemberEnterprise });
    // The sub-enterprise's own fence may name it.
    expect(
      data<{ GF_ID: number }>(await save(a, circleFence({ E_ID: child.E_ID, UserIds: [childUser] }))).GF_ID,
    ).toBeGreaterThan(0);
    // And nobody may edit or place a fence outside their scope.
    await expectRefused(child, circleFence({ E_ID: a.E_ID }), 404, Code.NotFound);
  });

  it('refuses to edit a fence of another enterprise as if it did not exist', async () => {
    const other = await org(t);
    const { GF_ID } = data<{ GF_ID: number }>(await save(other, circleFence({ Name: 'Theirs' })));
    await expectRefused(a, circleFence({ GF_ID, Name: 'Mine now' }), 404, Code.NotFound);
    const [row] = await t.db.selectFrom('geofence').select('Name').where('GF_ID', '=', GF_ID).execute();
    expect(row?.Name).toBe('Theirs');
  });
});

describe('Geofence QueryData and Delete', () => {
  it('pages and sorts within the scope only', async () => {
    const b = await org(t);
    const other = await org(t);
    await save(other, circleFence({ Name: 'Not yours' }));
    for (const name of ['c', 'a', 'e', 'b', 'd'])
      data(await save(b, circleFence({ Name: name, Radius: 100 + name.charCodeAt(0) })));
    const page = rows<GeofenceRow>(
      await b.api.get('/api/Geofence/QueryData?pageIndex=1&pageSize=2&orderField=Name&desc=true'),
    );
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.Name)).toEqual(['c', 'b']);
    const filtered = rows<GeofenceRow>(
      await b.api.get(
        `/api/Geofence/QueryData?jsonCondition=${encodeURIComponent('{"Radius":{"gte":199}}')}&orderField=Radius`,
      ),
    );
    expect(filtered.rows.map((r) => r.Name)).toEqual(['c', 'd', 'e']);
    expectFailure(await b.api.get('/api/Geofence/QueryData?orderField=Points'), 400, Code.Validation);
  });

  it('deletes all named fences of the scope, or none when one is outside it', async () => {
    const b = await org(t);
    const other = await org(t);
    const mine = [
      data<{ GF_ID: number }>(await save(b, circleFence({ Name: 'one' }))).GF_ID,
      data<{ GF_ID: number }>(await save(b, circleFence({ Name: 'two' }))).GF_ID,
    ];
    const theirs = data<{ GF_ID: number }>(await save(other, circleFence({ Name: 'theirs' }))).GF_ID;
    expectFailure(await b.api.postJson('/api/Geofence/Delete', { ids: [mine[0], theirs] }), 404, Code.NotFound);
    expect(rows(await b.api.get('/api/Geofence/QueryData')).total).toBe(2);
    expectFailure(await b.api.postJson('/api/Geofence/Delete', { ids: [] }), 400, Code.Validation);
    expectFailure(await b.api.postJson('/api/Geofence/Delete', { ids: 'x' }), 400, Code.Validation);
    expect((await b.api.postJson('/api/Geofence/Delete', { ids: mine })).statusCode).toBe(200);
    expect(rows(await b.api.get('/api/Geofence/QueryData')).total).toBe(0);
    expect(rows(await other.api.get('/api/Geofence/QueryData')).total).toBe(1);
    expect((await logged(t, b.E_ID, GeofenceLogActions.delete)).map((r) => r.Target).sort()).toEqual(['one', 'two']);
  });
});
