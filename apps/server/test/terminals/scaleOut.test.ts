import { TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, until } from '../hub/hubTestApp.js';
import { startScaleOut, type ScaleOut } from './scaleOutApps.js';
import { FAST_TERMINALS, TestTerminal, loggedIn, uniquePhone, type TerminalTestApp } from './terminalTestApp.js';

// Two instances behind one Redis (REDIS_URL): one socket per terminal user and the wrong-password
// lock hold across them (docs/terminal-protocol.md "Across several instances").
const LOCK_MS = 2_000;
const GRACE_MS = 600;

let s: ScaleOut;

beforeAll(async () => {
  s = await startScaleOut({ ...FAST_TERMINALS, loginLockMs: LOCK_MS, offlineGraceMs: GRACE_MS });
});
afterAll(async () => {
  await s?.close();
});

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
