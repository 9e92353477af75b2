import { SAFETY_ESCALATE_MINUTES, type TerminalServerMessage } from '@intercom/contract';
import { FakeClock } from '../../src/core/clock.js';
import { AlarmEscalation, SafetyWatch, type SafetyPeer } from '../../src/modules/safety/index.js';
import { insertNotification, type AlarmContent } from '../../src/modules/notify/index.js';
import { createEnterprise, type TestApp } from '../helper.js';
import { insertUsers } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';

/**
 * The test app of a rule table: its own safety watch ticks on the app's clock over the same database,
 * so the app gets a FakeClock that is never moved, and never judges the table's rows.
 */
export const useRuleTestApp = (): TestApp => useTestApp({ clock: new FakeClock(Date.now()) });

/** The gateway's sweep interval in production (terminalOptions.ts): the watch ticks this often. */
export const SWEEP_MS = 5_000;
/** SAFETY_ESCALATE_MINUTES' default, in ms. */
export const ESCALATE_MS = SAFETY_ESCALATE_MINUTES * 60_000;

/**
 * Moves the fake clock to `target` (ms since the rig's start, `at`) tick by tick. A tick still
 * running skips the next (start()): each runs to its end before time moves on, and a step never
 * spans two ticks. advance(0) first runs a tick a stall left overdue.
 */
export async function runTicksTo(clock: FakeClock, watch: SafetyWatch, at: () => number, target: number) {
  for (;;) {
    await clock.advance(0);
    await watch.settle();
    if (at() >= target) return;
    await clock.advance(Math.min(SWEEP_MS - (at() % SWEEP_MS), target - at()));
    await watch.settle();
  }
}

export interface SafetyValues {
  CheckInMinutes?: number;
  GraceMinutes?: number;
  NoMovementMinutes?: number;
  NoMovementMeters?: number;
}

/**
 * One user's safety watch on a FakeClock, on the test app's database (the rows the rules write are
 * real): its own enterprise and terminal user, its settings, a peer that records what it is sent,
 * alarms stored as the app stores them (at the clock's time) and escalation on the watch's tick.
 * Everything it records is `[ms since the start, what]`, this user's only (the sweeps see the whole
 * database, other rows' users included).
 */
export interface SafetyRig {
  clock: FakeClock;
  /** The clock's time when the watch first saw the user: the table's 0. */
  start: number;
  watch: SafetyWatch;
  user: { U_ID: number; E_ID: number; Phone: string };
  peer: SafetyPeer;
  /** checkInDue messages, alarms raised and escalations pushed, in the order they happened. */
  seen: [at: number, what: string][];
  /** Milliseconds since the start. */
  at(): number;
  /** Moves time to `at` (ms since the start) a sweep interval at a time, each tick run to its end. */
  runTo(at: number): Promise<void>;
  close(): Promise<void>;
}

const textOf = (content: AlarmContent | undefined) => (typeof content === 'string' ? content : (content?.text ?? ''));

export async function safetyRig(
  t: TestApp,
  values: SafetyValues,
  options: { position?: { lat: number; lon: number }; escalate?: boolean } = {},
): Promise<SafetyRig> {
  const clock = new FakeClock();
  const start = clock.now();
  const at = () => clock.now() - start;
  const { E_ID } = await createEnterprise(t.db);
  const [U_ID] = await insertUsers(t, E_ID, 1);
  const row = await t.db
    .selectFrom('terminal_user')
    .select('MobilePhone')
    .where('UserID', '=', U_ID!)
    .executeTakeFirst();
  const user = { U_ID: U_ID!, E_ID, Phone: row?.MobilePhone ?? '' };
  const settings = { CheckInMinutes: 0, GraceMinutes: 1, NoMovementMinutes: 0, NoMovementMeters: 10, ...values };
  await t.db
    .insertInto('safety_setting')
    .values({ TargetKind: 'user', TargetID: user.U_ID, E_ID, ...settings, UpdatedAt: start })
    .execute();
  const seen: [number, string][] = [];
  const escalation = new AlarmEscalation(t.db, {
    afterMs: ESCALATE_MS,
    push: (n) => {
      if (n.U_ID === user.U_ID) seen.push([at(), `escalated ${n.NType}`]);
    },
  });
  const watch = new SafetyWatch(
    t.db,
    async (subject, NType, Content, place) => {
      if (subject.U_ID === user.U_ID) seen.push([at(), `${NType}: ${textOf(Content)}`]);
      const stored = { ...subject, NType, Content, Latitude: place?.lat, Longitude: place?.lon };
      return insertNotification(t.db, { ...stored, CreatedAt: clock.now() });
    },
    {
      onError: (error) => {
        throw error;
      },
      clock,
      ...(options.escalate !== false && { escalation }),
      position: (_E_ID, id) => (id === user.U_ID ? (options.position ?? null) : null),
    },
  );
  const peer: SafetyPeer = {
    user,
    closeReason: null,
    send: (message: TerminalServerMessage) => {
      if (message.type === 'checkInDue') seen.push([at(), `checkInDue ${message.dueAt - start}`]);
    },
  };
  watch.attach(peer);
  watch.start(SWEEP_MS);
  return {
    clock,
    start,
    watch,
    user,
    peer,
    seen,
    at,
    runTo: (target) => runTicksTo(clock, watch, at, target),
    async close() {
      await watch.close();
      await t.db.deleteFrom('safety_state').where('U_ID', '=', user.U_ID).execute();
    },
  };
}
