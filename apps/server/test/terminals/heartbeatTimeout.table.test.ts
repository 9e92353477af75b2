import { TerminalCloseCodes } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { DEFAULT_TERMINAL_OPTIONS } from '../../src/terminals/terminalOptions.js';
import { FAST_HUB } from '../hub/hubTestApp.js';
import { waitFor } from '../talk/talkFixtures.js';
import { useTestApp } from '../useTestApp.js';
import { FAST_TERMINALS, TestTerminal, createTerminalUser, loggedIn, startTerminalApp } from './terminalTestApp.js';

// Issue 50, goal 2: a terminal's timeouts as a table in fake time, with the production numbers
// (docs/terminal-protocol.md): a socket that does not log in within 10 s is closed 4003, a logged-in
// terminal that sends nothing for 90 s is closed 4004 and goes offline at once, and one whose
// connection drops stays online for 15 s of grace. The gateway judges them at each sweep (every 5 s),
// so a row starts on a sweep and a close comes at the first sweep past its limit. Each row: steps
// at times → whether the socket is still open (or how it was closed) and whether the user is online.
const { loginTimeoutMs: LOGIN, heartbeatTimeoutMs: HEARTBEAT, offlineGraceMs: GRACE } = DEFAULT_TERMINAL_OPTIONS;
const SWEEP = DEFAULT_TERMINAL_OPTIONS.sweepMs;

type Step =
  /** The terminal sends a heartbeat and gets its ack. */
  | { heartbeat: true }
  /** The terminal's connection drops (it closes the socket; the server did not). */
  | { drop: true }
  /** Time moves on `ms`. */
  | { advance: number };

interface Row {
  rule: string;
  /** Whether the terminal logs in first (at the row's start). */
  login: boolean;
  steps: Step[];
  socket: 'open' | 'dropped' | 'heartbeat_timeout' | 'login_timeout';
  /** The user's online state at the end (null: no user, the socket never logged in). */
  online: boolean | null;
}

const heartbeats = (every: number, count: number): Step[] =>
  Array.from({ length: count }, () => [{ heartbeat: true } as const, { advance: every }]).flat();

const ROWS: Row[] = [
  {
    rule: 'silent for exactly the heartbeat timeout: still open',
    login: true,
    steps: [{ advance: HEARTBEAT }],
    socket: 'open',
    online: true,
  },
  {
    rule: 'silent past the timeout: closed 4004 at the next sweep, and offline at once',
    login: true,
    steps: [{ advance: HEARTBEAT + SWEEP }],
    socket: 'heartbeat_timeout',
    online: false,
  },
  {
    rule: 'a heartbeat every 30 s keeps it open for 5 minutes',
    login: true,
    steps: heartbeats(30_000, 10),
    socket: 'open',
    online: true,
  },
  {
    rule: 'a heartbeat restarts the timeout: open 90 s after the last one',
    login: true,
    steps: [{ advance: 80_000 }, { heartbeat: true }, { advance: HEARTBEAT }],
    socket: 'open',
    online: true,
  },
  {
    rule: 'a heartbeat restarts the timeout: closed at the sweep after 90 s from the last one',
    login: true,
    steps: [{ advance: 80_000 }, { heartbeat: true }, { advance: HEARTBEAT + SWEEP }],
    socket: 'heartbeat_timeout',
    online: false,
  },
  {
    rule: 'no login for exactly the login timeout: still open',
    login: false,
    steps: [{ advance: LOGIN }],
    socket: 'open',
    online: null,
  },
  {
    rule: 'no login past the login timeout: closed 4003 at the next sweep',
    login: false,
    steps: [{ advance: LOGIN + SWEEP }],
    socket: 'login_timeout',
    online: null,
  },
  {
    rule: 'a dropped connection keeps the user online through its grace',
    login: true,
    steps: [{ drop: true }, { advance: GRACE - 1 }],
    socket: 'dropped',
    online: true,
  },
  {
    rule: 'a dropped connection is offline when its grace ends',
    login: true,
    steps: [{ drop: true }, { advance: GRACE }],
    socket: 'dropped',
    online: false,
  },
];

const START = Date.UTC(2026, 0, 1);
const clock = new FakeClock(START);
// Production timeouts; the app's timers start with the app, at START, so sweeps fall on START + k·SWEEP.
const t = useTestApp(() =>
  startTerminalApp(
    { ...FAST_TERMINALS, loginTimeoutMs: LOGIN, heartbeatTimeoutMs: HEARTBEAT, offlineGraceMs: GRACE, sweepMs: SWEEP },
    FAST_HUB,
    {},
    { clock, talk: { tickMs: 1_000 } },
  ),
);

const CLOSE_CODES = {
  heartbeat_timeout: TerminalCloseCodes.heartbeatTimeout,
  login_timeout: TerminalCloseCodes.loginTimeout,
};

async function play(steps: Step[], terminal: TestTerminal): Promise<void> {
  for (const step of steps) {
    if ('heartbeat' in step) expect(await terminal.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
    else if ('drop' in step) {
      const sockets = t.terminals.gateway.counts.sockets;
      terminal.close();
      // The server has seen the drop (and started the grace) before time moves on.
      await waitFor(() => t.terminals.gateway.counts.sockets < sockets);
    } else await clock.advance(step.advance);
  }
}

describe('terminal timeouts, in fake time', () => {
  it.each(ROWS)('$rule', async ({ login, steps, socket, online }) => {
    await clock.advance((SWEEP - ((clock.now() - START) % SWEEP)) % SWEEP);
    const user = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = login ? await loggedIn(t, user.phone) : await TestTerminal.connect(t);
    const isOnline = () => t.deps.realtime.live.user(user.E_ID, user.U_ID)?.online ?? false;

    await play(steps, terminal);

    if (socket === 'open') {
      // A reply proves the socket still open (an ack, or not_logged_in before a login).
      await terminal.request({ type: 'heartbeat' });
      expect(terminal.closeCode).toBeUndefined();
    } else if (socket !== 'dropped') {
      expect(await terminal.closed).toBe(CLOSE_CODES[socket]);
      expect(terminal.received.at(-1)).toEqual({ type: 'closing', reason: socket });
    }
    if (online === false) await waitFor(() => !isOnline());
    expect(isOnline()).toBe(online ?? false);
    terminal.close();
  });
});
