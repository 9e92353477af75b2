import type { TerminalServerMessage } from '@intercom/contract';
import type { Kysely, KyselyPlugin } from 'kysely';
import { FakeClock } from '../../src/core/clock.js';
import type { DB } from '../../src/db/schema.js';
import { SafetyWatch, type SafetyPeer } from '../../src/modules/safety/index.js';
import { insertNotification, type AlarmContent } from '../../src/modules/notify/index.js';
import { insertUsers } from '../channelFixtures.js';
import { createEnterprise, type TestApp } from '../helper.js';
import { SWEEP_MS, runTicksTo, type SafetyValues } from './safetyRig.js';

/** What the watch asked of the database, by the statement's kind. */
export type StatementKind = 'sweep' | 'rules' | 'departments' | 'stateReads' | 'stateWrites' | 'other';

/** A settings row's target: the enterprise, a member by index (`#3`), or department A or B. */
export type Target = 'enterprise' | `#${number}` | 'A' | 'B';

/**
 * Many terminals of one enterprise on one safety watch, on a FakeClock and the test app's database,
 * for the cost of a tick (issue 52): the watch speaks to the database through a plugin that counts
 * its statements by kind. Members are `#0`..`#n-1`; the enterprise has departments A and B, every
 * member in B. Everything seen is `[ms since the start, '#i what']`.
 */
export interface FleetRig {
  clock: FakeClock;
  start: number;
  E_ID: number;
  watch: SafetyWatch;
  members: { U_ID: number; E_ID: number; Phone: string }[];
  departments: { A: number; B: number };
  /** checkInDue messages and alarms raised, in the order they happened. */
  seen: [at: number, what: string][];
  /** Statements the watch sent, by kind. */
  statements: Record<StatementKind, number>;
  at(): number;
  /** Writes (or overwrites) a settings row, as a save does; `rulesChanged` is the caller's. */
  save(target: Target, values: SafetyValues): Promise<void>;
  /** Moves a member to a department (an edit of the user, which tells the watch nothing). */
  move(member: number, department: 'A' | 'B'): Promise<void>;
  /** Moves time to `at` (ms since the start) a sweep interval at a time, each tick run to its end. */
  runTo(at: number): Promise<void>;
  close(): Promise<void>;
}

function kindOf(sql: string): StatementKind {
  if (/from "safety_state" as "s"/.test(sql)) return 'sweep';
  if (/from "(safety_setting|organ)"/.test(sql)) return 'rules';
  if (/"OS_ID" from "terminal_user"/.test(sql)) return 'departments';
  if (/^select .* from "safety_state"/.test(sql)) return 'stateReads';
  if (/^(insert into|update|delete from) "safety_state"/.test(sql)) return 'stateWrites';
  return 'other';
}

/** The same database, each statement counted by kind before it runs. */
function counted(db: Kysely<DB>, statements: Record<StatementKind, number>): Kysely<DB> {
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      statements[kindOf(db.getExecutor().compileQuery(node, queryId).sql)] += 1;
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return db.withPlugin(plugin);
}

const textOf = (content: AlarmContent) => (typeof content === 'string' ? content : content.text);

export async function fleetRig(
  t: TestApp,
  count: number,
  options: { position?: Map<number, { lat: number; lon: number }> } = {},
): Promise<FleetRig> {
  const clock = new FakeClock();
  const start = clock.now();
  const at = () => clock.now() - start;
  const { E_ID } = await createEnterprise(t.db, { quota: count + 10 });
  const organ = (OSName: string) =>
    t.db
      .insertInto('organ')
      .values({ E_ID, OSParentID: 0, OSName, U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow()
      .then((row) => row.OSID);
  const departments = { A: await organ('A'), B: await organ('B') };
  const ids = await insertUsers(t, E_ID, count, { OS_ID: departments.B });
  const phones = await t.db
    .selectFrom('terminal_user')
    .select(['UserID', 'MobilePhone'])
    .where('E_ID', '=', E_ID)
    .execute();
  const phoneOf = new Map(phones.map((row) => [row.UserID, row.MobilePhone]));
  const members = ids.map((U_ID) => ({ U_ID, E_ID, Phone: phoneOf.get(U_ID) ?? '' }));
  const index = new Map(ids.map((U_ID, i) => [U_ID, i]));
  const seen: [number, string][] = [];
  const statements: Record<StatementKind, number> = {
    sweep: 0,
    rules: 0,
    departments: 0,
    stateReads: 0,
    stateWrites: 0,
    other: 0,
  };
  const watch = new SafetyWatch(
    counted(t.db, statements),
    async (subject, NType, Content, place) => {
      seen.push([at(), `#${index.get(subject.U_ID)} ${NType}: ${textOf(Content)}`]);
      const stored = { ...subject, NType, Content, Latitude: place?.lat, Longitude: place?.lon };
      return insertNotification(t.db, { ...stored, CreatedAt: clock.now() });
    },
    {
      onError: (error) => {
        throw error;
      },
      clock,
      position: (_E_ID, U_ID) => options.position?.get(index.get(U_ID) ?? -1) ?? null,
    },
  );
  for (const [i, user] of members.entries()) {
    const peer: SafetyPeer = {
      user,
      closeReason: null,
      send: (message: TerminalServerMessage) => {
        if (message.type === 'checkInDue') seen.push([at(), `#${i} checkInDue ${message.dueAt - start}`]);
      },
    };
    watch.attach(peer);
  }
  watch.start(SWEEP_MS);
  const targetOf = (target: Target) => {
    if (target === 'enterprise') return { TargetKind: 'enterprise', TargetID: E_ID };
    if (target === 'A' || target === 'B') return { TargetKind: 'department', TargetID: departments[target] };
    return { TargetKind: 'user', TargetID: ids[Number(target.slice(1))] as number };
  };
  return {
    clock,
    start,
    E_ID,
    watch,
    members,
    departments,
    seen,
    statements,
    at,
    async save(target, values) {
      const row = { CheckInMinutes: 0, GraceMinutes: 1, NoMovementMinutes: 0, NoMovementMeters: 10, ...values };
      await t.db
        .insertInto('safety_setting')
        .values({ ...targetOf(target), E_ID, ...row, UpdatedAt: clock.now() })
        .onConflict((oc) => oc.columns(['TargetKind', 'TargetID']).doUpdateSet(row))
        .execute();
    },
    async move(member, department) {
      await t.db
        .updateTable('terminal_user')
        .set({ OS_ID: departments[department] })
        .where('UserID', '=', ids[member] as number)
        .execute();
    },
    runTo: (target) => runTicksTo(clock, watch, at, target),
    async close() {
      await watch.close();
      await t.db.deleteFrom('safety_state').where('E_ID', '=', E_ID).execute();
    },
  };
}
