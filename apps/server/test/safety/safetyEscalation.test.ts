import { NotificationTypes, SafetyAlarmTypes } from '@intercom/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { AlarmEscalation } from '../../src/modules/safety/index.js';
import { data, form, org } from '../channelFixtures.js';
import { startTerminalApp } from '../terminals/terminalTestApp.js';
import { MINUTE, alarmsOf, busAlarms, guarded, moveTo } from './safetyFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Unacknowledged safety alarms are raised again, once, after SAFETY_ESCALATE_MINUTES (issue 32).
const t = useTestApp(() => startTerminalApp(undefined, undefined, { SAFETY_ESCALATE_MINUTES: '3' }));
/**
 * The watch's clock, from the real time at each test's start (the alarms' CreatedAt is real time):
 * it ticks only when the test calls `tick`, so nothing escalates behind a test's back.
 */
let clock: FakeClock;

beforeEach(() => {
  clock = new FakeClock(Date.now());
  t.terminals.service.safety.useClock(clock);
});

const tickAt = (at: number) => t.terminals.service.safety.tick(moveTo(clock, at));

describe('escalation', () => {
  it('an SOS still new after the configured minutes is pushed again, Escalated, once; to the parent enterprise too', async () => {
    const parent = await org(t);
    const child = await org(t, { parentId: parent.E_ID });
    const { U_ID, terminal } = await guarded(t, {}, child);
    const bus = busAlarms(t);
    const sos = await terminal.request({ type: 'sos', text: 'help' });
    const [stored] = await t.db
      .selectFrom('notification')
      .select('CreatedAt')
      .where('N_ID', '=', Number(sos.N_ID))
      .execute();
    const raisedAt = Number(stored?.CreatedAt);

    await tickAt(raisedAt + 3 * MINUTE - 1);
    expect((await alarmsOf(t, U_ID, NotificationTypes.sos))[0]?.Escalated).toBe(0);
    await tickAt(raisedAt + 3 * MINUTE);
    await tickAt(raisedAt + 10 * MINUTE);
    bus.stop();
    expect((await alarmsOf(t, U_ID, NotificationTypes.sos))[0]).toMatchObject({ Escalated: 1, State: 'new' });
    const pushes = bus.list.filter((n) => n.N_ID === sos.N_ID);
    expect(pushes.map((n) => n.Escalated ?? false)).toEqual([false, true]);
    // The enterprise of the push is the child's: every console whose scope holds it, the parent's too.
    expect(pushes[1]).toMatchObject({ E_ID: child.E_ID, NType: 'SOS', Content: 'help', State: 'new' });
    // The alarm list shows it.
    const listed = await parent.api.get(
      `/api/Notification/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ U_ID }))}`,
    );
    expect(listed.json<{ Data: { Escalated: number }[] }>().Data[0]?.Escalated).toBe(1);
    terminal.close();
  });

  it('an acknowledged ManDown and a low-battery alarm are not escalated', async () => {
    const o = await org(t);
    const { U_ID, terminal } = await guarded(t, {}, o);
    const manDown = await terminal.request({ type: 'manDown' });
    expect((await terminal.request({ type: 'status', battery: 5 })).type).toBe('ack');
    data(await o.api.post('/api/Notification/Acknowledge', form({ ids: Number(manDown.N_ID) })));
    await tickAt(Date.now() + 60 * MINUTE);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.manDown)).toMatchObject([{ State: 'acknowledged', Escalated: 0 }]);
    expect(await alarmsOf(t, U_ID, NotificationTypes.lowBattery)).toMatchObject([{ State: 'new', Escalated: 0 }]);
    terminal.close();
  });

  it('two sweepers on one database (two instances) escalate each alarm once', async () => {
    const o = await org(t);
    const start = clock.now();
    const { U_ID, terminal } = await guarded(t, { CheckInMinutes: 1, GraceMinutes: 1 }, o);
    await tickAt(start);
    await tickAt(start + 2 * MINUTE); // missed: LoneWorker
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker)).toHaveLength(1);
    const pushed: number[] = [];
    const sweeper = () => new AlarmEscalation(t.db, { afterMs: 3 * MINUTE, push: (n) => pushed.push(n.N_ID) });
    const counts = await Promise.all([sweeper().sweep(start + 6 * MINUTE), sweeper().sweep(start + 6 * MINUTE)]);
    const [alarm] = await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker);
    expect(pushed.filter((id) => id === alarm?.N_ID)).toHaveLength(1);
    expect(counts[0] + counts[1]).toBe(pushed.length);
    expect(alarm?.Escalated).toBe(1);
    terminal.close();
  });
});
