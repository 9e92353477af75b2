import { SafetyAlarmTypes, TerminalErrors } from '@intercom/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { TestTerminal, startTerminalApp } from '../terminals/terminalTestApp.js';
import { createTerminalUser, loggedIn } from '../terminals/terminalTestApp.js';
import { org } from '../channelFixtures.js';
import { MINUTE, alarmsOf, busAlarms, guarded, moveTo } from './safetyFixtures.js';
import { useTestApp } from '../useTestApp.js';

// The terminal side of lone worker, no movement and man down (issue 32): manDown, checkIn, checkInDue.
const t = useTestApp(() => startTerminalApp());

/** The watch's clock, from the real time at each test's start: it ticks only when the test calls `tick`. */
let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(Date.now());
  t.terminals.service.safety.useClock(clock);
});

const watch = () => t.terminals.service.safety;
const clockAt = (at: number) => moveTo(clock, at);
const tickAt = (at: number) => watch().tick(clockAt(at));
const stateOf = (U_ID: number) =>
  t.db.selectFrom('safety_state').selectAll().where('U_ID', '=', U_ID).executeTakeFirst();

describe('manDown', () => {
  it('raises a ManDown alarm at the given place, acknowledged with its N_ID, and publishes it on the bus', async () => {
    const o = await org(t);
    const { U_ID, phone } = await createTerminalUser(t, { E_ID: o.E_ID });
    const terminal = await loggedIn(t, phone);
    const bus = busAlarms(t);
    const reply = await terminal.request({ type: 'manDown', lat: 22.5, lon: 114.1 });
    bus.stop();
    expect(reply).toMatchObject({ type: 'ack', N_ID: expect.any(Number) });
    const [alarm] = await alarmsOf(t, U_ID, SafetyAlarmTypes.manDown);
    expect(alarm).toMatchObject({ N_ID: reply.N_ID, Latitude: 22.5, Longitude: 114.1, State: 'new', Escalated: 0 });
    expect(bus.list.filter((n) => n.N_ID === reply.N_ID).map((n) => n.NType)).toEqual(['ManDown']);
    // Without a place: the user's latest position (none yet), still an alarm.
    expect((await terminal.request({ type: 'manDown' })).type).toBe('ack');
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.manDown)).toHaveLength(2);
    terminal.close();
  });

  it('refuses a bad latitude or longitude and a manDown before login, and stores nothing', async () => {
    const o = await org(t);
    const { U_ID, phone } = await createTerminalUser(t, { E_ID: o.E_ID });
    const early = await TestTerminal.connect(t);
    expect(await early.request({ type: 'manDown', lat: 1, lon: 2 })).toMatchObject({
      type: 'error',
      code: TerminalErrors.notLoggedIn,
    });
    expect(await early.request({ type: 'checkIn' })).toMatchObject({ code: TerminalErrors.notLoggedIn });
    early.close();
    const terminal = await loggedIn(t, phone);
    for (const [bad, field] of [
      [{ lat: 91, lon: 0 }, 'lat'],
      [{ lat: 'north', lon: 0 }, 'lat'],
      [{ lat: 0, lon: -180.5 }, 'lon'],
      [{ lat: null, lon: 0 }, 'lat'],
    ] as const) {
      expect(await terminal.request({ type: 'manDown', ...bad })).toMatchObject({
        type: 'error',
        code: TerminalErrors.invalid,
        field,
      });
    }
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.manDown)).toEqual([]);
    terminal.close();
  });
});

describe('lone worker', () => {
  it('a checkIn with nothing due is acknowledged: null without check-ins, else the next due time', async () => {
    const off = await guarded(t, {});
    expect(await off.terminal.request({ type: 'checkIn' })).toMatchObject({ type: 'ack', nextDueAt: null });
    const now = clock.now();
    const on = await guarded(t, { CheckInMinutes: 30, GraceMinutes: 5 });
    const reply = await on.terminal.request({ type: 'checkIn' });
    expect(reply).toMatchObject({ type: 'ack', nextDueAt: now + 30 * MINUTE });
    expect(await stateOf(on.U_ID)).toMatchObject({ DueAt: now + 30 * MINUTE, DeadlineAt: now + 35 * MINUTE });
    await tickAt(now + 30 * MINUTE - 1);
    expect(on.terminal.received.some((m) => m.type === 'checkInDue')).toBe(false);
    expect(await alarmsOf(t, on.U_ID, SafetyAlarmTypes.loneWorker)).toEqual([]);
    off.terminal.close();
    on.terminal.close();
  });

  it('sends checkInDue when the check-in falls due; answered, no alarm; missed by the grace, one LoneWorker alarm', async () => {
    const start = clock.now();
    const { U_ID, terminal } = await guarded(t, { CheckInMinutes: 10, GraceMinutes: 2 });
    await tickAt(start);
    const first = await stateOf(U_ID);
    const dueAt = start + 10 * MINUTE;
    expect(first).toMatchObject({ DueAt: dueAt, DeadlineAt: dueAt + 2 * MINUTE });

    await tickAt(dueAt - 1);
    expect(terminal.received.some((m) => m.type === 'checkInDue')).toBe(false);
    await tickAt(dueAt + 1000);
    expect(await terminal.next((m) => m.type === 'checkInDue')).toEqual({ type: 'checkInDue', dueAt });
    await tickAt(dueAt + 2000);
    expect(terminal.received.filter((m) => m.type === 'checkInDue')).toHaveLength(1);
    const answer = await terminal.request({ type: 'checkIn' });
    expect(answer).toMatchObject({ type: 'ack', nextDueAt: dueAt + 2000 + 10 * MINUTE });
    await tickAt(dueAt + 2 * MINUTE + 1000);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker)).toEqual([]);

    // The next one is not answered: one alarm past its deadline, however many ticks see it.
    const next = Number(answer.nextDueAt);
    await tickAt(next + 1000);
    await terminal.next((m) => m.type === 'checkInDue' && m.dueAt === next);
    await tickAt(next + 2 * MINUTE - 1);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker)).toEqual([]);
    clockAt(next + 2 * MINUTE);
    await Promise.all([watch().tick(), watch().tick(), watch().tick(next + 2 * MINUTE + 10)]);
    await tickAt(next + 3 * MINUTE);
    const alarms = await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Content).toBe('Check-in missed (due 2 min ago)');
    // The schedule starts again from the alarm: the following check-in is due a period later.
    expect(Number((await stateOf(U_ID))?.DueAt)).toBe(next + 12 * MINUTE);
    terminal.close();
  });

  it('a due check-in survives a reconnect (as after a restart): missed, it alarms once', async () => {
    const start = clock.now();
    const { U_ID, phone, terminal } = await guarded(t, { CheckInMinutes: 5, GraceMinutes: 1 });
    await tickAt(start);
    const dueAt = start + 5 * MINUTE;
    expect(Number((await stateOf(U_ID))?.DueAt)).toBe(dueAt);
    terminal.socket.terminate();
    await terminal.closed;
    const again = await loggedIn(t, phone);
    await tickAt(dueAt + 10);
    await again.next((m) => m.type === 'checkInDue' && m.dueAt === dueAt);
    await tickAt(dueAt + MINUTE + 10);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.loneWorker)).toHaveLength(1);
    // A logout ends the check-ins: nothing is due from a user off duty.
    expect((await again.request({ type: 'logout' })).type).toBe('ack');
    await vi.waitFor(async () => expect(await stateOf(U_ID)).toBeUndefined());
  });
});

describe('no movement', () => {
  const north = (lat: number, metres: number) => lat + metres / 111_195;

  it('one NoMovement alarm per episode of standing still; moving beyond the distance starts a new one', async () => {
    const start = clock.now();
    const { U_ID, terminal } = await guarded(t, { NoMovementMinutes: 3, NoMovementMeters: 20 });
    await tickAt(start);
    const at = async (lat: number) =>
      expect((await terminal.request({ type: 'position', lat, lon: 114.05, time: Date.now() })).type).toBe('ack');
    await at(22.54);
    await at(north(22.54, 15)); // within 20 m: still standing
    await tickAt(start + 3 * MINUTE - 1);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement)).toEqual([]);
    await tickAt(start + 3 * MINUTE);
    await tickAt(start + 10 * MINUTE);
    const first = await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ Latitude: 22.54, Content: 'No movement beyond 20 m for 3 min' });

    await at(north(22.54, 60)); // moved at start + 10 min: a new episode
    await tickAt(start + 12 * MINUTE);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement)).toHaveLength(1);
    await tickAt(start + 13 * MINUTE);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement)).toHaveLength(2);
    terminal.close();
  });

  it('a user that keeps moving raises nothing until it stops', async () => {
    const start = clock.now();
    const { U_ID, terminal } = await guarded(t, { NoMovementMinutes: 1, NoMovementMeters: 10 });
    await tickAt(start);
    for (let i = 0; i < 4; i++) {
      await terminal.request({ type: 'position', lat: north(22.54, i * 50), lon: 114.05, time: Date.now() + i });
      await tickAt(start + (i + 1) * 50_000);
    }
    // Standing still since the last fix (start + 150 s): the alarm comes a minute after it, not before.
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement)).toEqual([]);
    await tickAt(start + 150_000 + MINUTE);
    expect(await alarmsOf(t, U_ID, SafetyAlarmTypes.noMovement)).toHaveLength(1);
    terminal.close();
  });
});
