import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FakeClock, type Clock } from '../../src/core/clock.js';
import { GeofenceWatcher, type GeofenceFix, type GeofenceSubject } from '../../src/modules/geofence/index.js';
import { type TestApp } from '../helper.js';
import { data, insertUsers, org, type Org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';

// What one tenant's fences may cost (issue 48): alarms per user and fence at most one a cooldown
// while the crossing state follows every fix, one fix's crossings written in one statement a kind,
// and a batch checked a fix an event-loop turn so another tenant's request is answered meanwhile.
// The watcher is built here, on the app's database, with a fake clock: no test waits for the cooldown.
const t = useTestApp({ listen: true });

const CENTER = [10, 20] as const;
/** Metres north of the fences' centre, as a latitude. */
const north = (metres: number) => CENTER[0] + metres / 111_195;

/** `n` circles around the same centre (radius 100 m and up), for the whole enterprise. */
async function circles(o: Org, n: number, fields: Record<string, unknown> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const body = { Name: `C${i}`, Kind: 'circle', Center: CENTER, Radius: 100 + i, Enter: true, Exit: true, ...fields };
    ids.push(data<{ GF_ID: number }>(await o.api.postJson('/api/Geofence/Save', body)).GF_ID);
  }
  return ids;
}

interface Rig {
  watcher: GeofenceWatcher;
  /** `<U_ID> <NType> <Content>` of every alarm raised, in order. */
  alarms: string[];
}

function rig(options: { cooldownMs: number; clock?: Clock; db?: TestApp['db'] }): Rig {
  const alarms: string[] = [];
  const watcher = new GeofenceWatcher(
    options.db ?? t.db,
    (subject, NType, Content) => {
      alarms.push(`${subject.U_ID} ${NType} ${typeof Content === 'string' ? Content : Content.text}`);
      return Promise.resolve();
    },
    {
      onError: (error) => {
        throw error;
      },
      alarmCooldownMs: options.cooldownMs,
      ...(options.clock ? { clock: options.clock } : {}),
    },
  );
  return { watcher, alarms };
}

let fixTime = Date.now() - 6 * 3_600_000;
/** A fix `metres` north of the centre, a second after the previous one. */
const fixAt = (metres: number): GeofenceFix => ({
  lat: north(metres),
  lon: CENTER[1],
  time: (fixTime += 1000),
  accuracy: 5,
});

async function insideOf(U_ID: number): Promise<number[]> {
  const rows = await t.db
    .selectFrom('geofence_state')
    .select('GF_ID')
    .where('U_ID', '=', U_ID)
    .orderBy('GF_ID')
    .execute();
  return rows.map((r) => r.GF_ID);
}

describe('geofence alarm cooldown', () => {
  it('alternating in and out: one alarm per user and fence a cooldown, the inside state follows every fix', async () => {
    const o = await org(t);
    const [depot] = await circles(o, 1);
    const [u1, u2] = await insertUsers(t, o.E_ID, 2);
    const clock = new FakeClock(1_000_000);
    const { watcher, alarms } = rig({ cooldownMs: 60_000, clock });
    const at = async (U_ID: number, metres: number) => {
      watcher.check({ E_ID: o.E_ID, U_ID, Phone: '' }, [fixAt(metres)]);
      await watcher.settle();
      expect(await insideOf(U_ID)).toEqual(metres < 100 ? [depot] : []);
    };
    await at(u1!, 300);
    for (let i = 0; i < 10; i++) {
      await at(u1!, 20);
      await at(u1!, 300);
      clock.stall(5_000);
    }
    // Ten entries and ten exits in 50 s: the first entry alarmed, nothing else.
    expect(alarms).toEqual([`${u1} GeofenceEnter C0`]);
    // Another user has a cooldown of their own.
    await at(u2!, 20);
    expect(alarms).toEqual([`${u1} GeofenceEnter C0`, `${u2} GeofenceEnter C0`]);
    // Once the cooldown has run out, the next crossing alarms again, and starts the next cooldown.
    clock.stall(10_000);
    await at(u1!, 20);
    await at(u1!, 300);
    clock.stall(59_999);
    await at(u1!, 20);
    clock.stall(1);
    await at(u1!, 300);
    expect(alarms).toEqual([
      `${u1} GeofenceEnter C0`,
      `${u2} GeofenceEnter C0`,
      `${u1} GeofenceEnter C0`,
      `${u1} GeofenceExit C0`,
    ]);
  });

  it('a 100-fix batch alternating through 10 fences: one alarm per fence, and the state of its last fix', async () => {
    const o = await org(t);
    const fences = await circles(o, 10);
    const [user] = await insertUsers(t, o.E_ID, 1);
    const subject: GeofenceSubject = { E_ID: o.E_ID, U_ID: user!, Phone: '' };
    const { watcher, alarms } = rig({ cooldownMs: 60_000, clock: new FakeClock(5_000_000) });
    const batch = (last: number) => Array.from({ length: 100 }, (_, i) => fixAt(i === 99 ? last : i % 2 ? 300 : 20));
    watcher.check(subject, batch(300));
    await watcher.settle();
    expect(alarms).toHaveLength(10);
    expect(alarms.every((a) => a.includes('GeofenceEnter'))).toBe(true);
    expect(await insideOf(user!)).toEqual([]);
    watcher.check(subject, batch(20));
    await watcher.settle();
    expect(alarms).toHaveLength(10);
    expect(await insideOf(user!)).toEqual(fences);
  });

  it('a dwell alarm has a cooldown of its own: an entry and its dwell in one batch both alarm', async () => {
    const o = await org(t);
    await circles(o, 1, { Name: 'Gate', DwellMinutes: 1 });
    const [user] = await insertUsers(t, o.E_ID, 1);
    const { watcher, alarms } = rig({ cooldownMs: 60_000, clock: new FakeClock(7_000_000) });
    const entered = fixAt(20);
    const later = { ...fixAt(20), time: entered.time + 61_000 };
    fixTime = later.time;
    watcher.check({ E_ID: o.E_ID, U_ID: user!, Phone: '' }, [entered, later]);
    await watcher.settle();
    expect(alarms.map((a) => a.split(' ')[1])).toEqual(['GeofenceEnter', 'GeofenceDwell']);
  });
});

describe('geofence check cost', () => {
  it("one fix's crossings are one write a kind, however many fences it crosses", async () => {
    const o = await org(t);
    await circles(o, 20);
    const [user] = await insertUsers(t, o.E_ID, 1);
    const writes: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        const kind = args.node.kind;
        if (kind === 'InsertQueryNode' || kind === 'DeleteQueryNode' || kind === 'UpdateQueryNode') writes.push(kind);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const { watcher, alarms } = rig({ cooldownMs: 0, db: t.db.withPlugin(counting) });
    const subject = { E_ID: o.E_ID, U_ID: user!, Phone: '' };
    watcher.check(subject, [fixAt(300)]);
    await watcher.settle();
    watcher.check(subject, [fixAt(20)]);
    await watcher.settle();
    expect({ writes, alarms: alarms.length }).toEqual({ writes: ['InsertQueryNode'], alarms: 20 });
    watcher.check(subject, [fixAt(300)]);
    await watcher.settle();
    expect({ writes, alarms: alarms.length }).toEqual({ writes: ['InsertQueryNode', 'DeleteQueryNode'], alarms: 40 });
  });

  it("another tenant's request is answered while a 100-fix batch crossing 20 fences at every fix is checked", async () => {
    const hostile = await org(t);
    await circles(hostile, 20);
    const [user] = await insertUsers(t, hostile.E_ID, 1);
    const other = await org(t);
    await insertUsers(t, other.E_ID, 30);
    // No cooldown: every fix of the batch writes its 20 crossings and raises 20 alarms.
    const { watcher, alarms } = rig({ cooldownMs: 0 });
    const subject = { E_ID: hostile.E_ID, U_ID: user!, Phone: '' };
    watcher.check(subject, [fixAt(300)]);
    await watcher.settle();
    watcher.check(
      subject,
      Array.from({ length: 100 }, (_, i) => fixAt(i % 2 ? 300 : 20)),
    );
    const res = await fetch(`${t.origin}/api/UserInfo/QueryData?pageIndex=0&pageSize=10`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    const whenAnswered = alarms.length;
    expect(res.status).toBe(200);
    await watcher.settle();
    expect(alarms).toHaveLength(100 * 20);
    // Answered between two fixes of the batch, not after its last one.
    expect(whenAnswered).toBeLessThan(100 * 20);
  });
});
