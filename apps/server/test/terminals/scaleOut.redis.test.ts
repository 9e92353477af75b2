import { TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { sleep, until } from '../hub/hubTestApp.js';
import { connectThrottleRedis } from '../../src/bus/redisLoginThrottle.js';
import { redisCountWindows } from '../../src/bus/redisRateLimitStore.js';
import { REDIS_URL, startScaleOut } from './scaleOutApps.js';
import {
  FAST_TERMINALS,
  TERMINAL_PASSWORD,
  TestTerminal,
  loggedIn,
  uniquePhone,
  type TerminalTestApp,
} from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Two instances behind one Redis (REDIS_URL): one socket per terminal user and the wrong-password
// lock hold across them (docs/terminal-protocol.md "Across several instances").
const LOCK_MS = 2_000;
const GRACE_MS = 600;

const s = useTestApp(() => startScaleOut({ ...FAST_TERMINALS, loginLockMs: LOCK_MS, offlineGraceMs: GRACE_MS }));

/** The terminal still answers: its socket is open and logged in. */
async function expectAlive(terminal: TestTerminal) {
  expect(terminal.closeCode).toBeUndefined();
  expect(await terminal.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
}

async function expectReplaced(terminal: TestTerminal) {
  await terminal.next((m) => m.type === 'closing' && m.reason === 'replaced');
  expect(await terminal.closed).toBe(TerminalCloseCodes.replaced);
}

async function offlineAlarms(t: TerminalTestApp, U_ID: number): Promise<number> {
  const rows = await t.db
    .selectFrom('notification')
    .select('N_ID')
    .where('U_ID', '=', U_ID)
    .where('NType', '=', 'Offline')
    .execute();
  return rows.length;
}

describe('one socket per terminal user across instances', () => {
  it('closes the socket on A with `replaced` when the same user logs in on B; B stays, the user stays online', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const onA = await loggedIn(s.a, phone);
    const onB = await loggedIn(s.b, phone);
    await expectReplaced(onA);
    await sleep(100);
    await expectAlive(onB);
    expect(s.a.live.user(E_ID, U_ID)?.online).toBe(true);
    expect(s.b.live.user(E_ID, U_ID)?.online).toBe(true);
    expect(s.a.terminals.gateway.counts.online).toBe(0);
    onB.close();
  });

  it('does the same the other way round', async () => {
    const { phone } = await s.user();
    const onB = await loggedIn(s.b, phone);
    const onA = await loggedIn(s.a, phone);
    await expectReplaced(onB);
    await sleep(100);
    await expectAlive(onA);
    onA.close();
  });

  it('keeps exactly one of two logins sent to both instances at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const { phone } = await s.user();
      const [onA, onB] = await Promise.all([TestTerminal.connect(s.a), TestTerminal.connect(s.b)]);
      const replies = await Promise.all([onA.login(phone), onB.login(phone)]);
      expect(replies.map((r) => r.type)).toEqual(['ack', 'ack']);
      await until(() => onA.closeCode !== undefined || onB.closeCode !== undefined, 'one socket replaced');
      await sleep(200);
      const [loser, winner] = onA.closeCode !== undefined ? [onA, onB] : [onB, onA];
      expect(loser.closeCode).toBe(TerminalCloseCodes.replaced);
      await expectAlive(winner);
      winner.close();
    }
  });

  it('raises no Offline alarm when a dropped terminal logs in again on the other instance within the grace', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const onA = await loggedIn(s.a, phone);
    onA.socket.terminate();
    await onA.closed;
    const onB = await loggedIn(s.b, phone);
    await sleep(GRACE_MS + 300);
    expect(await offlineAlarms(s.a, U_ID)).toBe(0);
    expect(await offlineAlarms(s.b, U_ID)).toBe(0);
    expect(s.a.live.user(E_ID, U_ID)?.online).toBe(true);
    expect(s.b.live.user(E_ID, U_ID)?.online).toBe(true);
    await expectAlive(onB);

    // Control: the same drop with no new login does raise it, once the grace is over.
    onB.socket.terminate();
    await until(() => s.b.live.user(E_ID, U_ID)?.online === false, 'offline after the grace', 3000);
    await until(() => s.a.live.user(E_ID, U_ID)?.online === false, 'offline on A too', 3000);
  });

  it('says online again when another instance marks a user offline who is logged in here', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const onB = await loggedIn(s.b, phone);
    await until(() => s.a.live.user(E_ID, U_ID)?.online === true, 'online on A');
    // As if A's offline grace for an earlier socket ran out just before it heard of the login on B.
    s.a.live.setOnline({ E_ID, U_ID }, false);
    await until(() => s.a.live.user(E_ID, U_ID)?.online === true, 'online on A again');
    expect(s.b.live.user(E_ID, U_ID)?.online).toBe(true);
    await expectAlive(onB);
    onB.close();
  });
});

describe('the wrong-password lock across instances', () => {
  async function attempt(t: TerminalTestApp, phone: string, password = 'wrong-pass') {
    const terminal = await TestTerminal.connect(t);
    const reply = await terminal.login(phone, password);
    terminal.close();
    return reply;
  }

  /** Five wrong passwords, alternating A, B, A, B, A: each refused as bad credentials. */
  async function fiveWrong(phone: string) {
    for (const t of [s.a, s.b, s.a, s.b, s.a]) {
      expect(await attempt(t, phone)).toMatchObject({ type: 'error', code: TerminalErrors.badCredentials });
    }
  }

  it('locks a phone on both instances after 5 wrong passwords spread over them, until the lock expires', async () => {
    const { phone } = await s.user();
    await fiveWrong(phone);
    for (const t of [s.b, s.a]) {
      const reply = await attempt(t, phone, 'Term#2026');
      expect(reply).toMatchObject({ type: 'error', code: TerminalErrors.tooManyAttempts });
      expect(reply.retryAfterMs).toBeGreaterThan(0);
      expect(reply.retryAfterMs).toBeLessThanOrEqual(LOCK_MS);
    }
    await sleep(LOCK_MS + 100);
    const terminal = await loggedIn(s.b, phone);
    terminal.close();
  });

  it('locks an unknown phone the same way, so the answer does not tell which phones exist', async () => {
    const phone = uniquePhone();
    await fiveWrong(phone);
    expect(await attempt(s.b, phone)).toMatchObject({ type: 'error', code: TerminalErrors.tooManyAttempts });
    expect(await attempt(s.a, phone)).toMatchObject({ type: 'error', code: TerminalErrors.tooManyAttempts });
    await sleep(LOCK_MS + 100);
    expect(await attempt(s.a, phone)).toMatchObject({ type: 'error', code: TerminalErrors.badCredentials });
  });

  it('starts counting again after a right password on the other instance', async () => {
    const { phone } = await s.user();
    for (const t of [s.a, s.a, s.a, s.a]) expect(await attempt(t, phone)).toMatchObject({ code: 'bad_credentials' });
    const terminal = await loggedIn(s.b, phone);
    terminal.close();
    for (const t of [s.a, s.a, s.a, s.a]) expect(await attempt(t, phone)).toMatchObject({ code: 'bad_credentials' });
    expect(await attempt(s.b, phone, 'Term#2026')).toMatchObject({ type: 'ack' });
  });
});

describe('failed logins per address across instances', () => {
  // A pair of its own (its own Redis prefix), so the tests above never count toward this limit.
  const LIMIT = 4;
  const pair = useTestApp(() => startScaleOut({ ...FAST_TERMINALS, loginIpMaxFailures: LIMIT }));

  async function attempt(t: TerminalTestApp, fields: Record<string, unknown>) {
    const terminal = await TestTerminal.connect(t);
    const reply = await terminal.request({ type: 'login', ...fields });
    terminal.close();
    return reply;
  }

  it('counts them in the per-IP store in Redis, so the address is limited on both; a good token still gets in', async () => {
    const { phone } = await pair.user();
    // One token per user: on a shared database A's serves both; else each instance hands out its own.
    const tokenOf = async (t: TerminalTestApp) =>
      (await attempt(t, { phone, password: TERMINAL_PASSWORD })).resume as string;
    const tokenA = await tokenOf(pair.a);
    const tokens = new Map([
      [pair.a, tokenA],
      [pair.b, pair.shared ? tokenA : await tokenOf(pair.b)],
    ]);
    // Per instance, each would have allowed four.
    const codes = [];
    for (const t of [pair.a, pair.b, pair.a, pair.b, pair.a, pair.b]) {
      codes.push((await attempt(t, { phone: uniquePhone(), password: 'guess' })).code);
    }
    expect(codes).toEqual([
      ...Array(LIMIT).fill(TerminalErrors.badCredentials),
      TerminalErrors.loginRateLimited,
      TerminalErrors.loginRateLimited,
    ]);
    for (const t of [pair.a, pair.b]) {
      expect(await attempt(t, { phone, password: TERMINAL_PASSWORD })).toMatchObject({
        code: TerminalErrors.loginRateLimited,
      });
      expect(await attempt(t, { phone, resume: tokens.get(t) })).toMatchObject({ type: 'ack' });
    }
    const redis = await connectThrottleRedis(REDIS_URL);
    try {
      const keys = await redis.keys(`${pair.prefix}:rate:terminal-login:*`);
      expect(keys).toHaveLength(1);
      expect(await redis.get(keys[0] as string)).toBe(String(LIMIT));
      expect(await redis.pttl(keys[0] as string)).toBeGreaterThan(0);
    } finally {
      await redis.quit();
    }
  });

  it('counts in memory while Redis is down, and keeps a count reached there once Redis is back', async () => {
    const real = await connectThrottleRedis(REDIS_URL);
    let failing = false;
    const redis = {
      get status() {
        return real.status;
      },
      eval: (script: string, keys: number, ...args: (string | number)[]) =>
        failing ? Promise.reject(new Error('Command timed out')) : real.eval(script, keys, ...args),
    };
    const lines: string[] = [];
    const log = {
      warn: (_: object, m: string) => lines.push(`warn: ${m}`),
      info: (_: object, m: string) => lines.push(`info: ${m}`),
    };
    const windows = redisCountWindows(redis, `${pair.prefix}:rate:outage`, log, 'terminal login limit per IP');
    try {
      expect((await windows.incr('10.0.0.1', 60_000)).current).toBe(1);
      failing = true;
      for (const count of [1, 2, 3]) expect((await windows.incr('10.0.0.1', 60_000)).current).toBe(count);
      expect((await windows.peek('10.0.0.1')).current).toBe(3);
      failing = false;
      expect((await windows.peek('10.0.0.1')).current).toBe(3);
      expect((await windows.incr('10.0.0.1', 60_000)).current).toBe(3);
      expect(await real.get(`${pair.prefix}:rate:outage:10.0.0.1`)).toBe('2');
      expect(lines).toEqual([
        'warn: terminal login limit per IP: Redis unavailable; counting per instance until it is back',
        'info: terminal login limit per IP: Redis is back; counted across instances again',
      ]);
    } finally {
      await real.quit();
    }
  });
});
