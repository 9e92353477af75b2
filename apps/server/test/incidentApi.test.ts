import { Code, IncidentLogActions, IncidentMessageKeys, MessageKeys, type IncidentRow } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { logged, rows } from './channelFixtures.js';
import { create, org, settled, walker, zone, type Org } from './incidentFixtures.js';
import { startTerminalApp } from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

// POST /api/Incident/Create and /Close, GET /api/Incident/QueryData and ExportData (issue 32).
const t = useTestApp(() => startTerminalApp());
let a: Org;

beforeAll(async () => {
  a = await org(t);
});

const count = async (table: 'incident' | 'channel' | 'incident_member') =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const ring = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    30 + 0.01 * Math.sin((2 * Math.PI * i) / n),
    60 + 0.01 * Math.cos((2 * Math.PI * i) / n),
  ]);

/** A refused Create leaves every table as it was. */
async function refusedCreate(body: unknown, status: number, code: number, key?: string) {
  const before = [await count('incident'), await count('channel'), await count('incident_member')];
  const refused = expectFailure(await a.api.postJson('/api/Incident/Create', body), status, code, key);
  expect([await count('incident'), await count('channel'), await count('incident_member')]).toEqual(before);
  return refused;
}

/** The geofence helper gives crossing edges a key of their own; until it lands, `validation.invalid`. */
const selfIntersecting = (MessageKeys as Record<string, string>).selfIntersecting ?? MessageKeys.invalid;

const fieldOf = (body: { Data?: unknown[] }) => (body.Data as { field: string; key: string }[])[0];

describe('incident API', () => {
  it('refuses 501 points, radius 0, a self-intersecting polygon, a missing Name, a bad Sticky, with the field', async () => {
    const bowTie = [
      [30, 60],
      [30.1, 60.1],
      [30, 60.1],
      [30.1, 60],
    ];
    const cases: [unknown, string, string][] = [
      [{ Name: 'R', Kind: 'polygon', Points: ring(501) }, 'Points', MessageKeys.tooManyItems],
      [zone({ Radius: 0 }), 'Radius', MessageKeys.outOfRange],
      [{ Name: 'Bow', Kind: 'polygon', Points: bowTie }, 'Points', selfIntersecting],
      [{ Kind: 'circle', Center: [30, 60], Radius: 100 }, 'Name', MessageKeys.required],
      [zone({ Center: undefined }), 'Center', MessageKeys.required],
      [zone({ Kind: 'square' }), 'Kind', MessageKeys.invalid],
      [zone({ Sticky: 'yes' }), 'Sticky', MessageKeys.invalid],
    ];
    for (const [body, field, key] of cases) {
      const refused = await refusedCreate(body, 400, Code.Validation);
      expect(fieldOf(refused), JSON.stringify(body).slice(0, 80)).toEqual({ field, key });
    }
    // 500 points pass.
    expect((await create(a, { Name: 'Ring', Kind: 'polygon', Points: ring(500) })).IN_ID).toBeGreaterThan(0);
  });

  it('refuses a name a channel of the enterprise has (4009), and closing an unknown, a foreign or a closed incident', async () => {
    const { IN_ID } = await create(a, zone({ Name: 'Taken' }));
    await refusedCreate(zone({ Name: 'Taken' }), 409, Code.Conflict, MessageKeys.nameExists);
    const close = (who: Org, body: unknown) => who.api.postJson('/api/Incident/Close', body);
    const other = await org(t);
    expectFailure(await close(other, { IN_ID }), 404, Code.NotFound, MessageKeys.notFound);
    expectFailure(await close(a, { IN_ID: 2 ** 31 - 1 }), 404, Code.NotFound, MessageKeys.notFound);
    expectFailure(await close(a, {}), 400, Code.Validation);
    expectFailure(await close(a, { IN_ID: 'x' }), 400, Code.Validation);
    // The stranger's attempt changed nothing: it is still open, with its channel.
    const open = rows<IncidentRow>(await a.api.get('/api/Incident/QueryData')).rows.find((r) => r.IN_ID === IN_ID);
    expect(open?.ClosedAt).toBeNull();
    expect(await t.db.selectFrom('channel').select('CID').where('CID', '=', open!.CID).execute()).toHaveLength(1);
    expect((await close(a, { IN_ID })).statusCode).toBe(200);
    expectFailure(await close(a, { IN_ID }), 409, Code.Conflict, IncidentMessageKeys.alreadyClosed);
    expect(await logged(t, a.E_ID, IncidentLogActions.close)).toHaveLength(1);
  });

  it('Create: a channel of the online users inside, a log row; QueryData lists members and timeline; Close dissolves it', async () => {
    const o = await org(t);
    const inside = await walker(t, o, 'Inside One');
    const outside = await walker(t, o, 'Outside One');
    const offline = await walker(t, o);
    await inside.at(50);
    await outside.at(900);
    await offline.at(20);
    offline.terminal.close();
    await offline.terminal.closed;
    await waitOffline(o.E_ID, offline.U_ID);
    const { IN_ID, CID } = await create(o, zone({ Name: 'Warehouse fire' }));
    const members = await t.db.selectFrom('channel_member').select('UserID').where('CID', '=', CID).execute();
    expect(members.map((m) => m.UserID)).toEqual([inside.U_ID]);
    const channel = await t.db.selectFrom('channel').selectAll().where('CID', '=', CID).executeTakeFirstOrThrow();
    expect({ name: channel.CName, E_ID: channel.E_ID, note: channel.Note }).toEqual({
      name: 'Warehouse fire',
      E_ID: o.E_ID,
      note: `incident:${IN_ID}`,
    });
    const [log] = await logged(t, o.E_ID, IncidentLogActions.create);
    expect(log?.Target).toBe('Warehouse fire');

    const listed = rows<IncidentRow>(await o.api.get('/api/Incident/QueryData')).rows;
    expect(listed).toHaveLength(1);
    const row = listed[0]!;
    expect(row).toMatchObject({ IN_ID, CID, Name: 'Warehouse fire', Kind: 'circle', Radius: 200, Sticky: false });
    expect(row.MemberIds).toEqual([inside.U_ID]);
    expect(row.Timeline.map((e) => `${e.UserName} ${e.Change}`)).toEqual(['Inside One joined']);
    // Another enterprise sees none of it.
    expect(rows(await a.api.get('/api/Incident/QueryData')).rows.some((r) => r.IN_ID === IN_ID)).toBe(false);

    expect((await o.api.postJson('/api/Incident/Close', { IN_ID })).statusCode).toBe(200);
    await settled(t);
    expect(await t.db.selectFrom('channel').select('CID').where('CID', '=', CID).execute()).toEqual([]);
    const closed = rows<IncidentRow>(await o.api.get('/api/Incident/QueryData')).rows[0]!;
    expect(closed.ClosedAt).toBeGreaterThan(0);
    expect(closed.MemberIds).toEqual([inside.U_ID]);
    expect(closed.Timeline.map((e) => e.Change)).toEqual(['joined', 'left']);
    // The name is free again once the incident's channel is gone.
    expect((await create(o, zone({ Name: 'Warehouse fire' }))).IN_ID).toBeGreaterThan(IN_ID);
    for (const w of [inside, outside]) w.terminal.close();
  });

  it('QueryData filters and sorts; ExportData gives CSV', async () => {
    const o = await org(t);
    await create(o, zone({ Name: 'Alpha' }));
    await create(o, zone({ Name: 'Bravo', Sticky: true }));
    const byName = rows<IncidentRow>(await o.api.get('/api/Incident/QueryData?orderField=Name&isDesc=false')).rows;
    expect(byName.map((r) => r.Name)).toEqual(['Alpha', 'Bravo']);
    const sticky = rows<IncidentRow>(
      await o.api.get(`/api/Incident/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ Sticky: 1 }))}`),
    ).rows;
    expect(sticky.map((r) => r.Name)).toEqual(['Bravo']);
    const csv = await o.api.get('/api/Incident/ExportData');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFIN_ID,E_ID,CID,Name,Kind,Radius,Sticky,CreatedAt,ClosedAt');
    expect(csv.body).toContain('Bravo');
  });
});

async function waitOffline(E_ID: number, U_ID: number) {
  for (let i = 0; i < 200 && t.live.user(E_ID, U_ID)?.online; i++) await new Promise((r) => setTimeout(r, 10));
  expect(t.live.user(E_ID, U_ID)?.online).toBe(false);
}
