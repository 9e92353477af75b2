import { describe, expect, it } from 'vitest';
import { fleetRig, type StatementKind, type Target } from './fleetRig.js';
import { useRuleTestApp, type SafetyValues } from './safetyRig.js';

// Issue 52: a safety tick pays for the terminals that have something to do, not for the fleet, and
// every rule behaves as before. Many terminals of one enterprise on a watch that ticks every 5 s on a
// FakeClock; its rules are read at the first tick (5 s) and again every 30 s (rulesTtlMs) or at the
// next tick after `rulesChanged`. Each row: the rules at the start (by member `#i`, department A or B,
// or the enterprise; every member starts in B), events at times (ms from the start), the time it
// runs to, what the terminals were sent and what was raised, when; the statements the watch sent, by
// kind, where the row is about cost (these fail against the watch of before issue 52, which read
// every terminal's department every 30 s); and due times stored at the end.
const t = useRuleTestApp();

type Event =
  | [at: number, kind: 'save', target: Target, values: SafetyValues]
  | [at: number, kind: 'saveElsewhere', target: Target, values: SafetyValues]
  | [at: number, kind: 'move', member: number, department: 'A' | 'B'];

interface Row {
  name: string;
  terminals: number;
  rules: [Target, SafetyValues][];
  /** A due time stored before the watch saw the member (ms from the start; the deadline a minute later). */
  storedDue?: [member: number, dueAt: number];
  /** Members whose live position is known (no movement starts there). */
  standing?: number[];
  events: Event[];
  until: number;
  seen: [number, string][];
  statements?: Partial<Record<StatementKind, number>>;
  /** The stored due time of members at the end (ms from the start), or null. */
  due?: [member: number, dueAt: number | null][];
}

const ORIGIN = { lat: 22.54, lon: 114.05 };
/** Ticks at 5, 10, ..., 95 s: 19 sweeps; the rules read at 5, 35, 65 and 95 s, two statements each. */
const TO_95 = { until: 95_000, sweep: 19, rules: 8 };

const TABLE: Row[] = [
  {
    name: 'no rules: 1,000 terminals cost no department read and no write, their state read once',
    terminals: 1000,
    rules: [],
    events: [],
    until: TO_95.until,
    seen: [],
    statements: { sweep: TO_95.sweep, rules: TO_95.rules, departments: 0, stateReads: 2, stateWrites: 0, other: 0 },
  },
  {
    name: "a user's rule among 1,000 terminals applies, and no department is read",
    terminals: 1000,
    rules: [['#7', { CheckInMinutes: 1 }]],
    events: [],
    until: TO_95.until,
    seen: [[65_000, '#7 checkInDue 65000']],
    statements: { sweep: TO_95.sweep, rules: TO_95.rules, departments: 0, stateReads: 2, stateWrites: 1, other: 0 },
  },
  {
    name: "the whole enterprise's rule turned off: each due time cleared once, and no department read",
    terminals: 1000,
    rules: [['enterprise', { CheckInMinutes: 5 }]],
    events: [[20_000, 'save', 'enterprise', { CheckInMinutes: 0 }]],
    until: TO_95.until,
    seen: [],
    // The rules read at 5 s, again after the save (25 s), then every 30 s (55 and 85 s).
    statements: { sweep: TO_95.sweep, rules: 8, departments: 0, stateReads: 2, stateWrites: 2000, other: 0 },
    due: [
      [0, null],
      [999, null],
    ],
  },
  {
    name: 'a rule turned on here (rulesChanged) is picked up at the next tick',
    terminals: 1000,
    rules: [],
    events: [[20_000, 'save', '#3', { CheckInMinutes: 1 }]],
    until: 90_000,
    seen: [[85_000, '#3 checkInDue 85000']],
    due: [[3, 85_000]],
  },
  {
    name: 'a rule saved on another instance is picked up when the rules are read again (35 s)',
    terminals: 1000,
    rules: [],
    events: [[20_000, 'saveElsewhere', '#3', { CheckInMinutes: 1 }]],
    until: 100_000,
    seen: [[95_000, '#3 checkInDue 95000']],
  },
  {
    name: 'a rule turned off clears the due time once; nothing falls due',
    terminals: 1000,
    rules: [['#1', { CheckInMinutes: 1 }]],
    events: [[20_000, 'save', '#1', { CheckInMinutes: 0 }]],
    until: 200_000,
    seen: [],
    statements: { stateWrites: 2 },
    due: [[1, null]],
  },
  {
    name: 'a due time left from before, in an enterprise with no rules, is cleared at the first tick, once',
    terminals: 1000,
    rules: [],
    storedDue: [2, 600_000],
    events: [],
    // Before its deadline (660 s), where the sweep would clear it.
    until: 100_000,
    seen: [],
    statements: { stateReads: 2, stateWrites: 1 },
    due: [[2, null]],
  },
  {
    name: "a department's rule follows its user in and out, within the 30 s the department is cached",
    terminals: 1000,
    rules: [['A', { CheckInMinutes: 1 }]],
    events: [
      [10_000, 'move', 0, 'A'],
      [100_000, 'move', 0, 'B'],
    ],
    // In at the read of 35 s (due at 95 s); out at the read of 125 s, before the deadline of 155 s.
    until: 200_000,
    seen: [[95_000, '#0 checkInDue 95000']],
    statements: { stateWrites: 2 },
    due: [[0, null]],
  },
  {
    name: 'no movement turned on here: a member at its live position alarms 3 min after the next tick',
    terminals: 1000,
    rules: [],
    standing: [5],
    events: [[20_000, 'save', '#5', { NoMovementMinutes: 3, NoMovementMeters: 20 }]],
    until: 300_000,
    seen: [[205_000, '#5 NoMovement: No movement beyond 20 m for 3 min']],
  },
];

describe('a tick of many terminals, in fake time', () => {
  it.each(TABLE)('$name', async (row) => {
    const position = new Map((row.standing ?? []).map((i) => [i, ORIGIN]));
    const rig = await fleetRig(t, row.terminals, { position });
    for (const [target, values] of row.rules) await rig.save(target, values);
    if (row.storedDue) {
      const [member, dueAt] = row.storedDue;
      const due = { DueAt: rig.start + dueAt, DeadlineAt: rig.start + dueAt + 60_000 };
      await t.db
        .insertInto('safety_state')
        .values({ U_ID: rig.members[member]!.U_ID, E_ID: rig.E_ID, ...due })
        .execute();
    }
    for (const event of row.events) {
      await rig.runTo(event[0]);
      if (event[1] === 'move') await rig.move(event[2], event[3]);
      else {
        await rig.save(event[2], event[3]);
        if (event[1] === 'save') rig.watch.rulesChanged(rig.E_ID);
      }
    }
    await rig.runTo(row.until);
    const due = await t.db.selectFrom('safety_state').select(['U_ID', 'DueAt']).where('E_ID', '=', rig.E_ID).execute();
    const dueOf = new Map(due.map((r) => [r.U_ID, r.DueAt === null ? null : Number(r.DueAt) - rig.start]));
    await rig.close();
    expect(rig.seen).toEqual(row.seen);
    if (row.statements) expect(rig.statements).toMatchObject(row.statements);
    for (const [member, dueAt] of row.due ?? []) expect(dueOf.get(rig.members[member]!.U_ID) ?? null).toBe(dueAt);
  });
});
