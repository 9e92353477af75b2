import { NotificationTypes, NotifyStates, SafetyAlarmTypes } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { insertNotification } from '../../src/modules/notify/index.js';
import { safetyRig, type SafetyRig, type SafetyValues, useRuleTestApp } from './safetyRig.js';

// Issue 50, goal 2: escalation of an unhandled alarm as a table in fake time (docs/safety.md). A
// safety alarm (SOS, ManDown, LoneWorker, NoMovement) still `new` SAFETY_ESCALATE_MINUTES (5) after
// it was raised is pushed again, Escalated, once, at the first tick of the watch (every 5 s on a
// FakeClock) from then on; the alarm rows are in the test database. Each row: alarms raised and
// acknowledged at times (ms from the start), the time it runs to, and what happens, when.
const t = useRuleTestApp();

type Event =
  | [at: number, kind: 'raise', NType: string]
  | [at: number, kind: 'acknowledge', NType: string]
  | [at: number, kind: 'stall', ms: number];

interface Row {
  name: string;
  settings?: SafetyValues;
  events: Event[];
  until: number;
  seen: [number, string][];
}

const { sos, lowBattery } = NotificationTypes;
const { manDown, noMovement } = SafetyAlarmTypes;

const TABLE: Row[] = [
  {
    name: 'an SOS still new 5 min after it was raised is escalated once, at the first tick from then on',
    events: [[2_000, 'raise', sos]],
    until: 900_000,
    seen: [[305_000, `escalated ${sos}`]],
  },
  {
    name: 'not a tick early: 5 min less a millisecond after the raise, nothing',
    events: [[5_000, 'raise', sos]],
    until: 305_000 - 1,
    seen: [],
  },
  {
    name: 'an alarm acknowledged in time is never escalated',
    events: [
      [2_000, 'raise', manDown],
      [100_000, 'acknowledge', manDown],
    ],
    until: 900_000,
    seen: [],
  },
  {
    name: 'acknowledged after its escalation: escalated once, nothing more',
    events: [
      [2_000, 'raise', sos],
      [400_000, 'acknowledge', sos],
    ],
    until: 900_000,
    seen: [[305_000, `escalated ${sos}`]],
  },
  {
    name: 'two alarms a minute apart escalate each at its own time; a LowBattery notice never',
    events: [
      [2_000, 'raise', lowBattery],
      [2_000, 'raise', noMovement],
      [62_000, 'raise', manDown],
    ],
    until: 900_000,
    seen: [
      [305_000, `escalated ${noMovement}`],
      [365_000, `escalated ${manDown}`],
    ],
  },
  {
    name: "a missed check-in's LoneWorker alarm escalates 5 min after the deadline",
    settings: { CheckInMinutes: 10, GraceMinutes: 1 },
    events: [],
    until: 1_000_000,
    seen: [
      [605_000, 'checkInDue 605000'],
      [665_000, 'LoneWorker: Check-in missed (due 1 min ago)'],
      [965_000, 'escalated LoneWorker'],
    ],
  },
  {
    name: 'a stalled event loop: the escalation comes at the first tick after the stall, once',
    events: [
      [2_000, 'raise', sos],
      [100_000, 'stall', 400_000],
    ],
    until: 600_000,
    seen: [[500_000, `escalated ${sos}`]],
  },
];

async function raise(rig: SafetyRig, NType: string): Promise<number> {
  const alarm = await insertNotification(t.db, {
    ...rig.user,
    NType,
    Content: NType,
    CreatedAt: rig.clock.now(),
  });
  return alarm.N_ID;
}

describe('escalation of an unhandled alarm, in fake time', () => {
  it.each(TABLE)('$name', async ({ settings, events, until, seen }) => {
    const rig = await safetyRig(t, settings ?? {});
    const raised = new Map<string, number>();
    for (const event of events) {
      await rig.runTo(event[0]);
      if (event[1] === 'stall') rig.clock.stall(event[2]);
      else if (event[1] === 'raise') raised.set(event[2], await raise(rig, event[2]));
      else
        await t.db
          .updateTable('notification')
          .set({ State: NotifyStates.acknowledged, HandledAt: rig.clock.now() })
          .where('N_ID', '=', raised.get(event[2])!)
          .execute();
    }
    await rig.runTo(until);
    await rig.close();
    expect(rig.seen).toEqual(seen);
  });
});
