import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NotificationTypes, SafetyAlarmTypes } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { createPostgresDatabase, enterpriseWithAccount } from '../helper.js';
import { FAST_HUB, sleep } from '../hub/hubTestApp.js';
import { FAST_TALK, isType, seatOf } from '../talk/talkFixtures.js';
import {
  FAST_TERMINALS,
  createTerminalUser,
  loggedIn,
  startTerminalApp,
  type TerminalTestApp,
} from '../terminals/terminalTestApp.js';
import { MINUTE, alarmsOf, busAlarms, checkInEvery, moveTo } from './safetyFixtures.js';

// Safety timers survive a restart and fire once (issues 32 and 35): an app is stopped and started
// again on the same database (PostgreSQL with TEST_DATABASE_URL, else one SQLite file), with a second
// instance on it, and each missed check-in, escalation and emergency call happens once.
let storage: { options: { sharedDatabaseUrl: string } | { sharedDataDir: string }; drop(): Promise<void> };
const apps: TerminalTestApp[] = [];
/** Every instance's safety watch runs on it: they tick only when the test calls `tick`. */
const clock = new FakeClock(Date.now());

async function start(): Promise<TerminalTestApp> {
  const env = { SAFETY_ESCALATE_MINUTES: '3' };
  const app = await startTerminalApp(FAST_TERMINALS, FAST_HUB, env, { ...storage.options, talk: FAST_TALK });
  app.terminals.service.safety.useClock(clock);
  apps.push(app);
  return app;
}

async function stop(app: TerminalTestApp): Promise<void> {
  apps.splice(apps.indexOf(app), 1);
  await app.close();
}

beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const pg = await createPostgresDatabase(adminUrl);
    storage = { options: { sharedDatabaseUrl: pg.url }, drop: () => pg.drop() };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-safety-restart-'));
    storage = {
      options: { sharedDataDir: dir },
      drop: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
    };
  }
});
afterAll(async () => {
  for (const app of [...apps]) await stop(app);
  await storage?.drop();
});

const tickAll = (at: number) => {
  moveTo(clock, at);
  return Promise.all(apps.map((app) => app.terminals.service.safety.tick(at)));
};

describe('safety timers across a restart', () => {
  it('a check-in missed while the server was down and the phone dead alarms once, with two instances sweeping', async () => {
    const first = await start();
    const enterprise = await enterpriseWithAccount(first, { role: 'admin' });
    const { U_ID, phone } = await createTerminalUser(first, { E_ID: enterprise.E_ID });
    await checkInEvery(first, { U_ID, E_ID: enterprise.E_ID }, 5);
    const at = moveTo(clock, Date.now());
    const terminal = await loggedIn(first, phone);
    await first.terminals.service.safety.tick(at);
    const dueAt = at + 5 * MINUTE;
    const stored = await first.db.selectFrom('safety_state').selectAll().where('U_ID', '=', U_ID).executeTakeFirst();
    expect(stored).toMatchObject({ DueAt: dueAt, DeadlineAt: dueAt + MINUTE });
    // The phone dies, then the server restarts; the terminal never comes back.
    terminal.socket.terminate();
    await terminal.closed;
    await stop(first);
    const again = await start();
    const other = await start();
    await tickAll(dueAt + MINUTE - 1);
    expect(await alarmsOf(again, U_ID, SafetyAlarmTypes.loneWorker)).toEqual([]);
    await tickAll(dueAt + MINUTE + 10);
    await tickAll(dueAt + MINUTE + 20);
    await other.terminals.service.safety.settle();
    const alarms = await alarmsOf(again, U_ID, SafetyAlarmTypes.loneWorker);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Content).toBe('Check-in missed (due 1 min ago)');
    // The next check-in is due a period after the alarm; it too is missed once, not once per sweep.
    const next = await again.db.selectFrom('safety_state').selectAll().where('U_ID', '=', U_ID).executeTakeFirst();
    expect(next).toMatchObject({ DueAt: dueAt + MINUTE + 10 + 5 * MINUTE });
    await stop(again);
    await stop(other);
  });

  it('an SOS escalates once after a restart and opens no second emergency call; its stale call is not offered', async () => {
    // The watches tick only when told: nothing escalates before the ticks below.
    const first = await start();
    const enterprise = await enterpriseWithAccount(first, { role: 'admin' });
    const { U_ID, phone } = await createTerminalUser(first, { E_ID: enterprise.E_ID });
    const seat = await seatOf(first, enterprise.token);
    const terminal = await loggedIn(first, phone);
    const sos = await terminal.request({ type: 'sos', text: 'help' });
    const start1 = await terminal.next(isType('callStart', { emergency: true }));
    await seat.next(isType('callStart', { cid: start1.cid, emergency: true }));
    const [row] = await alarmsOf(first, U_ID, NotificationTypes.sos);
    const raisedAt = Number(
      (await first.db.selectFrom('notification').select('CreatedAt').where('N_ID', '=', Number(sos.N_ID)).execute())[0]
        ?.CreatedAt,
    );
    expect(row).toMatchObject({ Escalated: 0, State: 'new' });

    // The server stops (the call ends with it); the terminal and the seat come back on a new process.
    await stop(first);
    const again = await start();
    const other = await start();
    const buses = [busAlarms(again), busAlarms(other)];
    const back = await loggedIn(again, phone);
    const seatAgain = await seatOf(again, enterprise.token);
    // The instance holding the terminal escalates (its push reaches the terminal's talk service),
    // then both sweep again: nothing more.
    // The alarm's CreatedAt is real time; the ticks pass their times (the clock is ahead after the first test).
    await again.terminals.service.safety.tick(raisedAt + 3 * MINUTE);
    await Promise.all(apps.map((app) => app.terminals.service.safety.tick(raisedAt + 4 * MINUTE)));
    await sleep(300); // a callStart would have come by now
    for (const bus of buses) bus.stop();
    const pushes = buses.flatMap((bus) => bus.list).filter((n) => n.N_ID === sos.N_ID);
    expect((await alarmsOf(again, U_ID, NotificationTypes.sos))[0]).toMatchObject({ Escalated: 1, State: 'new' });
    expect(pushes.map((n) => n.Escalated)).toEqual([true]);
    expect(back.received.filter((m) => m.type === 'callStart')).toEqual([]);
    expect(seatAgain.received.filter((m) => m.type === 'callStart')).toEqual([]);
    const open = await again.db.selectFrom('emergency_call').selectAll().where('U_ID', '=', U_ID).execute();
    expect(open.map((c) => c.EndedAt !== null)).toEqual([true]);
    // A new SOS opens a new call, offered to the seat.
    await back.request({ type: 'sos', text: 'again' });
    const start2 = await back.next(isType('callStart', { emergency: true }));
    await seatAgain.next(isType('callStart', { cid: start2.cid, emergency: true }));
    seatAgain.close();
    back.close();
  });
});
