import type { Notification } from '@intercom/contract';
import type { FakeClock } from '../../src/core/clock.js';
import { data, org, type Org } from '../channelFixtures.js';
import { createTerminalUser, loggedIn, type TerminalTestApp, type TestTerminal } from '../terminals/terminalTestApp.js';

export const MINUTE = 60_000;

/**
 * Moves a FakeClock to `at` without running its timers (the test ticks the watch itself); returns
 * `at`. Time only goes forward: a row that needs an earlier time passes it to `tick(at)` instead.
 */
export function moveTo(clock: FakeClock, at: number): number {
  clock.stall(at - clock.now());
  return at;
}

/** An enterprise with one logged-in terminal user under the given safety settings. */
export async function guarded(
  t: TerminalTestApp,
  settings: { CheckInMinutes?: number; GraceMinutes?: number; NoMovementMinutes?: number; NoMovementMeters?: number },
  o?: Org,
): Promise<{ o: Org; U_ID: number; phone: string; terminal: TestTerminal }> {
  const owner = o ?? (await org(t));
  const { U_ID, phone } = await createTerminalUser(t, { E_ID: owner.E_ID });
  const body = { CheckInMinutes: 0, GraceMinutes: 1, NoMovementMinutes: 0, ...settings, UserIds: [U_ID] };
  data(await owner.api.postJson('/api/Safety/Settings', body));
  const terminal = await loggedIn(t, phone);
  return { o: owner, U_ID, phone, terminal };
}

/** Check-ins every `minutes` with a minute's grace for one user, written straight to the table. */
export async function checkInEvery(
  t: Pick<TerminalTestApp, 'db'>,
  user: { U_ID: number; E_ID: number },
  minutes: number,
): Promise<void> {
  await t.db
    .insertInto('safety_setting')
    .values({
      TargetKind: 'user',
      TargetID: user.U_ID,
      E_ID: user.E_ID,
      CheckInMinutes: minutes,
      GraceMinutes: 1,
      NoMovementMinutes: 0,
      NoMovementMeters: 10,
      UpdatedAt: Date.now(),
    })
    .execute();
}

/** The user's alarms of one type, oldest first, once every alarm under way is stored. */
export async function alarmsOf(t: TerminalTestApp, U_ID: number, NType: string) {
  await t.terminals.service.safety.settle();
  await t.terminals.service.alarms.settle();
  return t.db
    .selectFrom('notification')
    .select(['N_ID', 'NType', 'Content', 'Latitude', 'Longitude', 'Escalated', 'State'])
    .where('U_ID', '=', U_ID)
    .where('NType', '=', NType)
    .orderBy('N_ID')
    .execute();
}

/** Every alarm published on the bus (what the hub pushes and the emergency calls hear). */
export function busAlarms(t: TerminalTestApp): { list: Notification[]; stop: () => void } {
  const list: Notification[] = [];
  const stop = t.deps.realtime.bus.subscribe((event) => {
    if (event.kind === 'notification') list.push(event.notification);
  });
  return { list, stop };
}
