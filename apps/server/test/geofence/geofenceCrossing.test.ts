import { GeofenceAlarmTypes, type Notification } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helper.js';
import { data, org, type Org } from '../channelFixtures.js';
import { createTerminalUser, loggedIn, startTerminalApp, type TestTerminal } from '../terminals/terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Fixes from /terminal and OsmAnd against geofences: one alarm per crossing, none at the edge (issue 32).
// These tests cross the same fence again within seconds: no cooldown (geofenceLimits.test.ts tests it).
const t = useTestApp(() => startTerminalApp(undefined, undefined, { GEOFENCE_ALARM_COOLDOWN_SECONDS: '0' }));
const pushed: Notification[] = [];
let stop: () => void;

beforeAll(() => {
  stop = t.live.onChange((change) => {
    if (change.kind === 'notification') pushed.push(JSON.parse(change.json) as Notification);
  });
});
afterAll(() => {
  stop();
});

/** Metres north of a point, as a latitude. */
const north = (lat: number, metres: number) => lat + metres / 111_195;

async function settled() {
  await t.terminals.service.geofences.settle();
  await t.terminals.service.alarms.settle();
}

async function alarmsOf(U_ID: number) {
  await settled();
  const rows = await t.db
    .selectFrom('notification')
    .select(['NType', 'Content', 'Latitude'])
    .where('U_ID', '=', U_ID)
    .where('NType', 'like', 'Geofence%')
    .orderBy('N_ID')
    .execute();
  return rows.map((r) => `${r.NType} ${r.Content}`);
}

interface Walker {
  U_ID: number;
  phone: string;
  terminal: TestTerminal;
  /** Sends one fix (acknowledged) at the next second. */
  at(lat: number, lon: number, accuracy?: number, time?: number): Promise<void>;
}

let clock = Date.now() - 3_600_000;
async function walker(o: Org, OS_ID?: number): Promise<Walker> {
  const { U_ID, phone } = await createTerminalUser(t, { E_ID: o.E_ID });
  if (OS_ID) await t.db.updateTable('terminal_user').set({ OS_ID }).where('UserID', '=', U_ID).execute();
  const terminal = await loggedIn(t, phone);
  return {
    U_ID,
    phone,
    terminal,
    async at(lat, lon, accuracy = 5, time) {
      clock += 1000;
      const reply = await terminal.request({ type: 'position', lat, lon, time: time ?? clock, accuracy });
      expect(reply.type).toBe('ack');
      await settled();
    },
  };
}

const save = async (o: Org, body: Record<string, unknown>) =>
  data<{ GF_ID: number }>(await o.api.postJson('/api/Geofence/Save', { Enter: true, Exit: true, ...body })).GF_ID;

describe('geofence crossings', () => {
  it('a terminal crossing a circle: one entry, one exit, nothing while it wanders at the edge within its accuracy', async () => {
    const o = await org(t);
    await save(o, { Name: 'Depot', Kind: 'circle', Center: [10, 20], Radius: 100 });
    const w = await walker(o);
    await w.at(north(10, 300), 20);
    expect(await alarmsOf(w.U_ID)).toEqual([]);
    await w.at(north(10, 95), 20);
    // At the edge: 5 m out, back in, 8 m out (accuracy 5 m, so the margin is 10 m).
    for (const d of [105, 98, 108, 99, 109]) await w.at(north(10, d), 20);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceEnter Depot']);
    await w.at(north(10, 300), 20);
    // Back near the edge, outside: no new entry until it is inside again.
    await w.at(north(10, 104), 20);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceEnter Depot', 'GeofenceExit Depot']);
    // A poor fix (accuracy 60 m) 50 m outside is no exit; the alarm is pushed to the consoles' hub too.
    await w.at(north(10, 50), 20);
    await w.at(north(10, 150), 20, 60);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceEnter Depot', 'GeofenceExit Depot', 'GeofenceEnter Depot']);
    expect(pushed.filter((n) => n.U_ID === w.U_ID).map((n) => n.NType)).toEqual([
      GeofenceAlarmTypes.enter,
      GeofenceAlarmTypes.exit,
      GeofenceAlarmTypes.enter,
    ]);
    w.terminal.close();
  });

  it('an OsmAnd tracker crossing a polygon alarms the same way; Enter false raises only the exit', async () => {
    const o = await org(t);
    const square = [
      [10, 20],
      [10, 20.002],
      [10.002, 20.002],
      [10.002, 20],
    ];
    await save(o, { Name: 'Yard', Kind: 'polygon', Points: square, Enter: false });
    const { U_ID, phone } = await createTerminalUser(t, { E_ID: o.E_ID });
    const seconds = Math.floor(Date.now() / 1000) - 600;
    // In, 5.5 m out (within the 10 m an OsmAnd fix without accuracy gets), in, out.
    const track = [
      [9.99, 20.001],
      [10.001, 20.001],
      [10.001, 20.00205],
      [10.001, 20.0019],
      [10.001, 20.004],
    ];
    for (const [i, [lat, lon]] of track.entries()) {
      const query = new URLSearchParams({
        id: phone,
        lat: String(lat),
        lon: String(lon),
        timestamp: String(seconds + i),
      });
      const res = await call(t.app, { method: 'GET', url: `/api/osmand?${query}`, remoteAddress: '10.3.0.1' });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await alarmsOf(U_ID)).toEqual(['GeofenceExit Yard']);
  });

  it('dwell: one alarm once the user has been inside DwellMinutes, measured in fix times', async () => {
    const o = await org(t);
    await save(o, {
      Name: 'Gate',
      Kind: 'circle',
      Center: [10, 20],
      Radius: 100,
      Enter: false,
      Exit: false,
      DwellMinutes: 1,
    });
    const w = await walker(o);
    const start = clock + 1000;
    await w.at(10, 20, 5, start);
    await w.at(10, 20, 5, start + 30_000);
    expect(await alarmsOf(w.U_ID)).toEqual([]);
    await w.at(10, 20, 5, start + 60_000);
    await w.at(10, 20, 5, start + 120_000);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceDwell Gate (1 min)']);
    // A fix older than the newest checked (a late backlog) changes nothing.
    await w.at(north(10, 500), 20, 5, start + 10_000);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceDwell Gate (1 min)']);
    clock = start + 200_000;
    w.terminal.close();
  });

  it('a polygon across the antimeridian: in on one side, across 180, out', async () => {
    const o = await org(t);
    const fence = [
      [-17, 179],
      [-17, -179],
      [-18, -179],
      [-18, 179],
    ];
    await save(o, { Name: 'Fiji', Kind: 'polygon', Points: fence });
    const w = await walker(o);
    await w.at(-17.5, -178);
    await w.at(-17.5, -179.5);
    await w.at(-17.5, 180);
    await w.at(-17.5, 179.5);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceEnter Fiji']);
    await w.at(-17.5, 178.5);
    expect(await alarmsOf(w.U_ID)).toEqual(['GeofenceEnter Fiji', 'GeofenceExit Fiji']);
    w.terminal.close();
  });

  it('only the users and departments (with sub-departments) named; a fence saved later applies at once', async () => {
    const o = await org(t);
    const organ = async (OSParentID: number, OSName: string) =>
      (
        await t.db
          .insertInto('organ')
          .values({ E_ID: o.E_ID, OSParentID, OSName, U_TypeID: 0, PriorityLevel: 0 })
          .returning('OSID')
          .executeTakeFirstOrThrow()
      ).OSID;
    const parent = await organ(0, 'Field');
    const child = await organ(parent, 'Night shift');
    const other = await organ(0, 'Office');
    const inChild = await walker(o, child);
    const inOther = await walker(o, other);
    const named = await walker(o);
    // The enterprise's fences are read at the first fix: none yet.
    await inChild.at(0, 0);
    await save(o, {
      Name: 'Site',
      Kind: 'circle',
      Center: [0, 0],
      Radius: 500,
      DepartmentIds: [parent],
      UserIds: [named.U_ID],
    });
    for (const w of [inChild, inOther, named]) {
      await w.at(0, 0.001);
      await w.at(0, 0.0011);
    }
    expect(await alarmsOf(inChild.U_ID)).toEqual(['GeofenceEnter Site']);
    expect(await alarmsOf(named.U_ID)).toEqual(['GeofenceEnter Site']);
    expect(await alarmsOf(inOther.U_ID)).toEqual([]);
    for (const w of [inChild, inOther, named]) w.terminal.close();
  });
});
