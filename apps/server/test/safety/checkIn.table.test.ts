import { describe, expect, it } from 'vitest';
import { safetyRig, type SafetyValues, useRuleTestApp } from './safetyRig.js';

// Issue 50, goal 2: lone worker's check-in rule as a table in fake time (docs/safety.md). The watch
// ticks every 5 s (the production sweep interval) on a FakeClock and writes its schedule to the test
// database. Each row: settings, events at times (ms from the moment the watch first sees the user),
// the time the table runs to, and what happens, when: `checkInDue <due time>` sent to the terminal,
// `ack <next due time>` answering its checkIn, the LoneWorker alarm raised with its text.
const t = useRuleTestApp();

type Event = [at: number, kind: 'checkIn'] | [at: number, kind: 'stall', ms: number];

interface Row {
  name: string;
  settings: SafetyValues;
  events: Event[];
  until: number;
  seen: [number, string][];
}

const missed = (minutes: number) => `LoneWorker: Check-in missed (due ${minutes} min ago)`;

const TABLE: Row[] = [
  {
    name: 'the first check-in falls due a period after the first tick, and is announced once',
    settings: { CheckInMinutes: 1, GraceMinutes: 1 },
    events: [],
    until: 120_000,
    seen: [[65_000, 'checkInDue 65000']],
  },
  {
    name: 'missed by the grace: one alarm at the deadline, and the schedule starts again from it',
    settings: { CheckInMinutes: 1, GraceMinutes: 1 },
    events: [],
    until: 250_000,
    seen: [
      [65_000, 'checkInDue 65000'],
      [125_000, missed(1)],
      [185_000, 'checkInDue 185000'],
      [245_000, missed(1)],
    ],
  },
  {
    name: 'answered within the grace: no alarm; the next is due a period after the answer',
    settings: { CheckInMinutes: 1, GraceMinutes: 1 },
    events: [[92_000, 'checkIn']],
    until: 215_000,
    seen: [
      [65_000, 'checkInDue 65000'],
      [92_000, 'ack 152000'],
      [155_000, 'checkInDue 152000'],
      [215_000, missed(1)],
    ],
  },
  {
    name: 'a check-in before it is due moves the due time: nothing is announced until then',
    settings: { CheckInMinutes: 1, GraceMinutes: 1 },
    events: [[32_000, 'checkIn']],
    until: 100_000,
    seen: [
      [32_000, 'ack 92000'],
      [95_000, 'checkInDue 92000'],
    ],
  },
  {
    name: 'the alarm comes at the first tick on or after the deadline, not a tick early',
    settings: { CheckInMinutes: 10, GraceMinutes: 2 },
    events: [],
    until: 725_000 - 1,
    seen: [[605_000, 'checkInDue 605000']],
  },
  {
    name: 'a longer grace: the alarm counts the minutes since the due time',
    settings: { CheckInMinutes: 10, GraceMinutes: 5 },
    events: [],
    until: 905_000,
    seen: [
      [605_000, 'checkInDue 605000'],
      [905_000, missed(5)],
    ],
  },
  {
    name: 'a stalled event loop: the missed deadline is judged at the first tick after the stall, once',
    settings: { CheckInMinutes: 1, GraceMinutes: 1 },
    events: [[100_000, 'stall', 60_000]],
    until: 170_000,
    seen: [
      [65_000, 'checkInDue 65000'],
      [160_000, missed(2)],
    ],
  },
  {
    name: 'no check-ins (0 minutes): nothing is due, a checkIn is answered with none, nothing alarms',
    settings: { CheckInMinutes: 0 },
    events: [[30_000, 'checkIn']],
    until: 600_000,
    seen: [[30_000, 'ack none']],
  },
];

describe('check-in due and the LoneWorker alarm, in fake time', () => {
  it.each(TABLE)('$name', async ({ settings, events, until, seen }) => {
    const rig = await safetyRig(t, settings);
    for (const event of events) {
      await rig.runTo(event[0]);
      if (event[1] === 'stall') rig.clock.stall(event[2]);
      else {
        const next = await rig.watch.checkIn(rig.user);
        rig.seen.push([rig.at(), `ack ${next === null ? 'none' : next - rig.start}`]);
      }
    }
    await rig.runTo(until);
    await rig.close();
    expect(rig.seen).toEqual(seen);
  });
});

describe('a tick and a login', () => {
  it('a terminal that logs in while a tick waits its turn is judged from the next tick, at its time', async () => {
    const rig = await safetyRig(t, { CheckInMinutes: 10, GraceMinutes: 1 });
    const dueAt = () =>
      t.db
        .selectFrom('safety_state')
        .select('DueAt')
        .where('U_ID', '=', rig.user.U_ID)
        .executeTakeFirst()
        .then((row) => (row?.DueAt == null ? null : Number(row.DueAt)));
    // Not logged in yet; a tick is asked for at 0 and is still queued when the terminal logs in.
    rig.watch.detach(rig.peer);
    const queued = rig.watch.tick(rig.start);
    rig.watch.attach(rig.peer);
    await queued;
    expect(await dueAt()).toBeNull();
    // The next tick, after the login, schedules the first check-in a period from its own time.
    await rig.watch.tick(rig.start + 1_000);
    expect(await dueAt()).toBe(rig.start + 1_000 + 10 * 60_000);
    await rig.close();
  });
});
