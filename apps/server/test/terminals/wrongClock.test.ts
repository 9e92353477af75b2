import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAST_TERMINALS,
  createTerminalUser,
  fix,
  loggedIn,
  startTerminalApp,
  type TerminalTestApp,
} from './terminalTestApp.js';

// A terminal with a wrong clock (the protocol takes any time from 2000-01-01 to 10 minutes ahead)
// shares a batch with good fixes: on PostgreSQL its fix has no day partition but the default one.
let t: TerminalTestApp;
beforeAll(async () => {
  t = await startTerminalApp(FAST_TERMINALS);
});
afterAll(async () => {
  await t.close();
});

describe('a fix far from today', () => {
  it('is acknowledged and stored, and so is every other fix of its batch', async () => {
    const good = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const wrong = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const goodTerminal = await loggedIn(t, good.phone);
    const wrongTerminal = await loggedIn(t, wrong.phone);
    const now = Date.now();
    const times = [Date.UTC(2000, 0, 1, 0, 0, 1), Date.UTC(2013, 5, 1), now + 9 * 60_000];
    const replies = await Promise.all([
      wrongTerminal.request({ type: 'positions', fixes: times.map((time) => fix(time)) }),
      goodTerminal.request({ type: 'position', ...fix(now) }),
    ]);
    expect(replies).toMatchObject([{ type: 'ack', stored: 3 }, { type: 'ack' }]);
    const stored = await t.db
      .selectFrom('location_history')
      .select(['U_ID', 'H_Time'])
      .where('U_ID', 'in', [good.U_ID, wrong.U_ID])
      .orderBy('H_Time')
      .execute();
    expect(stored.map((r) => [r.U_ID, Number(r.H_Time)])).toEqual([
      [wrong.U_ID, times[0]],
      [wrong.U_ID, times[1]],
      [good.U_ID, now],
      [wrong.U_ID, times[2]],
    ]);
    goodTerminal.close();
    wrongTerminal.close();
  });
});
