// One tick of the safety watch with 10,000 terminals attached (issue 52: the live plane pays for what
// changed, not for the whole fleet). In process, on a SQLite file (WAL, as the server opens it)
// migrated and seeded with SAFETY_TICK_TERMINALS (10,000) terminal users spread over
// SAFETY_TICK_ENTERPRISES (5) enterprises of 10 departments each; the first enterprise has a user's
// check-in rule (every minute, a minute's grace) for SAFETY_TICK_CHECKINS (100) of its users, the
// others no rule at all. Each user is attached as a fake peer (the SafetyPeer interface) that answers
// `checkInDue` with a check-in, as a terminal does. The watch has the escalation sweep, as in
// production, and ticks SAFETY_TICK_TICKS (120) times 5 s apart on a FakeClock (10 minutes: the rules
// read again 20 times). Figures, over the ticks after the first (which reads every stored state):
// wall and CPU milliseconds of a tick (mean, p95) and SQL statements a tick (Kysely's `log`, the
// check-ins' writes included). The issue names no goal. Prints one JSON object.
//   npx tsx bench/safetyTick.ts   (packages/contract built, as `npm run bench` does; else add
//                                  --conditions=development to run on its sources)
// SAFETY_TICK_WATCH: another safetyWatch.ts to measure (the code before issue 52 from a copy of the
// tree; docs/benchmarks.md "The safety watch's tick with 10,000 terminals").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { FakeClock } from '../apps/server/src/core/clock.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import type { DB } from '../apps/server/src/db/schema.js';
import { AlarmEscalation } from '../apps/server/src/modules/safety/alarmEscalation.js';
import { insertNotification } from '../apps/server/src/modules/notify/index.js';
import { percentile } from './support/startServer.js';

type WatchModule = typeof import('../apps/server/src/modules/safety/safetyWatch.js');

const TERMINALS = Number(process.env.SAFETY_TICK_TERMINALS ?? 10_000);
const ENTERPRISES = Number(process.env.SAFETY_TICK_ENTERPRISES ?? 5);
const CHECKINS = Number(process.env.SAFETY_TICK_CHECKINS ?? 100);
const TICKS = Number(process.env.SAFETY_TICK_TICKS ?? 120);
const WATCH = process.env.SAFETY_TICK_WATCH ?? '../apps/server/src/modules/safety/safetyWatch.js';
const SWEEP_MS = 5_000;
const DEPARTMENTS = 10;
const log = (line: string) => process.stderr.write(`[safetyTick] ${line}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const { SafetyWatch } = (await import(WATCH)) as WatchModule;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-tick-'));
const sqlite = new SQLite(path.join(dir, 'intercom.sqlite'));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('synchronous = NORMAL');
let statements = 0;
const db = new Kysely<DB>({
  dialect: new SqliteDialect({ database: sqlite }),
  log: (event) => {
    if (event.level === 'query') statements += 1;
  },
});

/** The enterprises, their departments and users; returns the users, enterprise by enterprise. */
async function seed(): Promise<{ U_ID: number; E_ID: number; Phone: string }[]> {
  const now = Date.now();
  const users: { U_ID: number; E_ID: number; Phone: string }[] = [];
  for (let e = 0; e < ENTERPRISES; e++) {
    const { E_ID } = await db
      .insertInto('enterprise')
      .values({
        E_Code: `SAFETY${e}`,
        E_Name: `Safety ${e}`,
        P_ID: null,
        A_ID: null,
        Quota: TERMINALS,
        ExpireAt: null,
        Disabled: 0,
        CreatedAt: now,
      })
      .returning('E_ID')
      .executeTakeFirstOrThrow();
    const departments: number[] = [];
    for (let d = 0; d < DEPARTMENTS; d++) {
      const row = { E_ID, OSParentID: 0, OSName: `Team ${d}`, U_TypeID: 0, PriorityLevel: 0 };
      departments.push((await db.insertInto('organ').values(row).returning('OSID').executeTakeFirstOrThrow()).OSID);
    }
    const count = Math.floor(TERMINALS / ENTERPRISES) + (e < TERMINALS % ENTERPRISES ? 1 : 0);
    for (let first = 0; first < count; first += 500) {
      const rows = Array.from({ length: Math.min(500, count - first) }, (_, k) => ({
        E_ID,
        OS_ID: departments[(first + k) % DEPARTMENTS] as number,
        UserName: `Worker ${e}-${first + k}`,
        MobilePhone: `138${String(e * TERMINALS + first + k).padStart(8, '0')}`,
        ICCID: null,
        UType: 0,
        PriorityLevel: 0,
        ExpireAt: null,
        IsLock: 0,
        Caps: 6,
        PasswordHash: '',
        GPSConfig: '',
        Remark: '',
        CreatedAt: now,
      }));
      const inserted = await db
        .insertInto('terminal_user')
        .values(rows)
        .returning(['UserID', 'E_ID', 'MobilePhone'])
        .execute();
      users.push(...inserted.map((r) => ({ U_ID: r.UserID, E_ID: r.E_ID, Phone: r.MobilePhone })));
    }
  }
  const guarded = users.slice(0, CHECKINS).map((user) => ({
    TargetKind: 'user',
    TargetID: user.U_ID,
    E_ID: user.E_ID,
    CheckInMinutes: 1,
    GraceMinutes: 1,
    NoMovementMinutes: 0,
    NoMovementMeters: 10,
    UpdatedAt: now,
  }));
  if (guarded.length > 0) await db.insertInto('safety_setting').values(guarded).execute();
  return users;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const figure = (value: number) => ({ value: round(value), goal: null, met: null });

try {
  await migrateToLatest(db);
  const users = await seed();
  const clock = new FakeClock(Date.now());
  let raised = 0;
  let due = 0;
  const answers: Promise<unknown>[] = [];
  const escalation = new AlarmEscalation(db, { afterMs: 5 * 60_000, push: () => undefined });
  const watch = new SafetyWatch(
    db,
    (subject, NType, Content) => {
      raised += 1;
      return insertNotification(db, { ...subject, NType, Content, CreatedAt: clock.now() });
    },
    { onError: (error, context) => log(`${context}: ${String(error)}`), clock, escalation, position: () => null },
  );
  for (const user of users) {
    watch.attach({
      user,
      closeReason: null,
      send: (message) => {
        if (message.type !== 'checkInDue') return;
        due += 1;
        answers.push(watch.checkIn(user));
      },
    });
  }
  const ticks: { wallMs: number; cpuMs: number; statements: number }[] = [];
  for (let i = 0; i < TICKS; i++) {
    clock.stall(SWEEP_MS);
    const before = { statements, cpu: process.cpuUsage(), wall: performance.now() };
    await watch.tick();
    await Promise.all(answers.splice(0)); // the check-ins its checkInDue called for
    const cpu = process.cpuUsage(before.cpu);
    ticks.push({
      wallMs: performance.now() - before.wall,
      cpuMs: (cpu.user + cpu.system) / 1000,
      statements: statements - before.statements,
    });
  }
  await watch.close();
  const [first, ...steady] = ticks as [(typeof ticks)[0], ...typeof ticks];
  const sorted = (key: 'wallMs' | 'cpuMs') => steady.map((t) => t[key]).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      watch: WATCH,
      terminals: users.length,
      enterprises: ENTERPRISES,
      checkInUsers: CHECKINS,
      ticks: TICKS,
      checkInDueSent: due,
      alarmsRaised: raised,
      firstTick: { wallMs: round(first.wallMs), cpuMs: round(first.cpuMs), statements: first.statements },
      tickWallMsMean: figure(mean(steady.map((t) => t.wallMs))),
      tickWallMsP95: figure(percentile(sorted('wallMs'), 95)),
      tickCpuMsMean: figure(mean(steady.map((t) => t.cpuMs))),
      tickCpuMsP95: figure(percentile(sorted('cpuMs'), 95)),
      statementsPerTickMean: figure(mean(steady.map((t) => t.statements))),
      statementsPerTickMax: figure(Math.max(...steady.map((t) => t.statements))),
    }),
  );
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
