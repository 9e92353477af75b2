import { SafetyAlarmTypes, type Notification } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import type { SafetyPeer } from '../../src/modules/safety/index.js';
import { loggedIn, FAST_TERMINALS } from '../terminals/terminalTestApp.js';
import { startScaleOut, type ScaleOut } from '../terminals/scaleOutApps.js';
import { MINUTE, alarmsOf, checkInEvery, moveTo } from './safetyFixtures.js';

// Two instances on one PostgreSQL database and one Redis (production's scale-out): a check-in is
// announced by the instance holding the terminal, judged once, and its alarm escalated once.
const shared = Boolean(process.env.TEST_DATABASE_URL);
let s: ScaleOut;
/** Both instances' safety watches run on it: they tick only when the test calls `tick`. */
const clock = new FakeClock(Date.now());

beforeAll(async () => {
  if (!shared) return;
  s = await startScaleOut(FAST_TERMINALS);
  for (const app of [s.a, s.b]) app.terminals.service.safety.useClock(clock);
});
afterAll(async () => {
  await s?.close();
});

describe.runIf(shared)('safety across two instances (PostgreSQL + Redis)', () => {
  it('the holder announces the due check-in; a missed one alarms once though both judge it; escalated once', async () => {
    const { U_ID, phone, E_ID } = await s.user();
    await checkInEvery(s.a, { U_ID, E_ID }, 5);
    // The clock stands still at `start` until moved.
    const start = moveTo(clock, Date.now());
    const onA = await loggedIn(s.a, phone);
    await s.a.terminals.service.safety.tick(start);
    // The terminal moves to instance b (a reconnect through the balancer): b holds it now.
    const onB = await loggedIn(s.b, phone);
    await onA.closed;
    moveTo(clock, start + 5 * MINUTE);
    await Promise.all([s.a.terminals.service.safety.tick(), s.b.terminals.service.safety.tick()]);
    expect(await onB.next((m) => m.type === 'checkInDue')).toEqual({ type: 'checkInDue', dueAt: start + 5 * MINUTE });
    expect(onA.received.some((m) => m.type === 'checkInDue')).toBe(false);

    // A stale holder on a (it has not heard of the move yet) judges the same deadline as b.
    const stale: SafetyPeer = { user: { U_ID, E_ID, Phone: phone }, closeReason: null, send: () => undefined };
    s.a.terminals.service.safety.attach(stale);
    const pushed: Notification[] = [];
    const stop = s.a.deps.realtime.bus.subscribe((event) => {
      if (event.kind === 'notification' && event.notification.U_ID === U_ID) pushed.push(event.notification);
    });
    await s.a.terminals.service.safety.tick(start); // a reads the stored schedule
    moveTo(clock, start + 6 * MINUTE);
    await Promise.all([s.a.terminals.service.safety.tick(), s.b.terminals.service.safety.tick()]);
    const alarms = await alarmsOf(s.b, U_ID, SafetyAlarmTypes.loneWorker);
    expect(alarms).toHaveLength(1);
    // Instance a has heard of the alarm (through Redis when b raised it) before the clock moves on.
    await expect.poll(() => pushed.some((n) => n.N_ID === alarms[0]?.N_ID), { timeout: 5000 }).toBe(true);

    // Nobody acknowledges it: both instances sweep, one escalates.
    moveTo(clock, start + 20 * MINUTE);
    await Promise.all([s.a.terminals.service.safety.tick(), s.b.terminals.service.safety.tick()]);
    await Promise.all([s.a.terminals.service.safety.tick(), s.b.terminals.service.safety.tick()]);
    const deadline = Date.now() + 5000;
    while (pushed.filter((n) => n.Escalated).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300)); // a second push would have come by now
    stop();
    // One push raising it and one escalating it, in either order. The alarm's CreatedAt is the real time
    // of the raise (notifyRepository), not this test's clock, so at the 6-minute tick it is already 5
    // minutes old: the instance whose sweep runs after the raise escalates it at once, and a may get
    // its own escalation before b's raise arrives through Redis. Raising with the watch's clock would
    // let this test hold the escalation back to the 20th minute (not done: closing note).
    const escalations = pushed.filter((n) => n.N_ID === alarms[0]?.N_ID).map((n) => n.Escalated ?? false);
    expect(escalations.sort()).toEqual([false, true]);
    s.a.terminals.service.safety.detach(stale);
    onB.close();
  });
});
