import { randomBytes } from 'node:crypto';
import { RESUME_TOKEN_PATTERN, TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { FAST_HUB } from '../hub/hubTestApp.js';
import {
  TERMINAL_PASSWORD,
  TestTerminal,
  createTerminalUser,
  useTerminalApp,
  type ServerMessage,
} from './terminalTestApp.js';

// Issue 48, finding 6: a stranger locked any terminal out. 1,000 unauthenticated logins locked 200
// phones in 6.2 s, terminals holding a good token included: the lock was checked before the token, a
// wrong token counted toward it, a socket stayed open after failed logins and /terminal had no per-IP
// limit. Here the same sweep at a fifth of the scale, in fake time (the gateway's LoginClock), with
// the default limits: 30 failed logins per address a minute, 5 per socket, 5 wrong passwords per phone.
const IP_FAILURES = 30;
const PER_SOCKET = 5;
const WINDOW_MS = 60_000;
const PHONES = 20;
const MESSAGES = 100;
const SWEEPER = '203.0.113.7';

// The app runs on fake time from now (the admin login's envelope carries the real time).
const clock = new FakeClock(Date.now());
// TRUST_PROXY=true: the last X-Forwarded-For entry is the client, so each test terminal has an address.
const t = useTerminalApp({ loginLockMs: 15 * 60_000 }, FAST_HUB, { TRUST_PROXY: 'true' }, { clock });

const fromIp = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const from = (ip: string) => TestTerminal.connect(t, fromIp(ip));
const login = (ip: string, fields: Record<string, unknown>) => TestTerminal.loginOnce(t, fields, fromIp(ip));
const randomToken = () => randomBytes(32).toString('base64url');

/** A phone whose owner holds a good token, handed out to a password login from the owner's address. */
async function owner(i: number): Promise<{ phone: string; ip: string; token: string }> {
  const { phone } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
  const ip = `198.51.100.${i + 1}`;
  const ack = await login(ip, { phone, password: TERMINAL_PASSWORD });
  expect(ack).toMatchObject({ type: 'ack', resume: expect.stringMatching(RESUME_TOKEN_PATTERN) });
  return { phone, ip, token: ack.resume as string };
}

describe('a sweep of unauthenticated logins', () => {
  it('locks out no terminal that holds its token, is rate-limited, and has its sockets closed', async () => {
    const owners = [];
    for (let i = 0; i < PHONES; i++) owners.push(await owner(i));

    // The sweeper: 5 logins per phone, round robin, half wrong passwords and half made-up tokens, one
    // after the other, opening a new socket whenever the server closes one.
    const answers: ServerMessage[] = [];
    const sockets: { replies: number; code: number; reason: unknown }[] = [];
    let socket: TestTerminal | undefined;
    let replies = 0;
    for (let i = 0; i < MESSAGES; i++) {
      socket ??= await from(SWEEPER);
      const phone = owners[i % PHONES]?.phone;
      // Each phone gets wrong passwords and made-up tokens in turn.
      const guess = (i + Math.floor(i / PHONES)) % 2 === 0 ? { password: `guess-${i}` } : { resume: randomToken() };
      answers.push(await socket.request({ type: 'login', phone, ...guess }));
      replies += 1;
      if (replies < PER_SOCKET) continue;
      const code = await socket.closed;
      sockets.push({ replies, code, reason: socket.received.find((m) => m.type === 'closing')?.reason });
      socket = undefined;
      replies = 0;
    }

    // The first 30 are checked and refused; every later one is rate-limited before any password check.
    const codes = answers.map((a) => a.code);
    expect(codes.slice(0, IP_FAILURES)).toEqual(Array(IP_FAILURES).fill(TerminalErrors.badCredentials));
    expect(codes.slice(IP_FAILURES)).toEqual(Array(MESSAGES - IP_FAILURES).fill(TerminalErrors.loginRateLimited));
    for (const limited of answers.slice(IP_FAILURES)) {
      expect(limited.retryAfterMs).toBeGreaterThan(0);
      expect(limited.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
    }
    // Every socket was closed after its fifth failed login, with 4005 and a `closing` saying why.
    expect(sockets).toEqual(
      Array(MESSAGES / PER_SOCKET).fill({
        replies: PER_SOCKET,
        code: TerminalCloseCodes.loginFailures,
        reason: 'login_failures',
      }),
    );

    // Every owner still resumes with its token: from its own address, and from the sweeper's (a
    // carrier NAT shares one address between many phones).
    for (const { phone, ip, token } of owners) {
      expect(await login(ip, { phone, resume: token })).toMatchObject({ type: 'ack' });
      expect(await login(SWEEPER, { phone, resume: token })).toMatchObject({ type: 'ack' });
    }
    // No phone is locked: each took at most 2 wrong passwords before the address was cut off.
    for (const [i, { phone }] of owners.entries()) {
      expect(await login(`198.51.100.${100 + i}`, { phone, password: TERMINAL_PASSWORD })).toMatchObject({
        type: 'ack',
      });
    }
    // The sweeper's address may try again once its window has ended.
    expect(await login(SWEEPER, { phone: owners[0]?.phone, password: 'late-guess' })).toMatchObject({
      code: TerminalErrors.loginRateLimited,
    });
    await clock.advance(WINDOW_MS);
    expect(await login(SWEEPER, { phone: owners[0]?.phone, password: 'late-guess' })).toMatchObject({
      code: TerminalErrors.badCredentials,
    });
  }, 60_000);
});

describe('the login limits, in fake time', () => {
  it('locks a phone after 5 wrong passwords for 15 minutes; a good token gets in all along', async () => {
    const { phone, token } = await owner(200);
    const ip = '192.0.2.10';
    for (let i = 0; i < 5; i++) {
      expect(await login(ip, { phone, password: 'wrong-pass' })).toMatchObject({ code: TerminalErrors.badCredentials });
    }
    const steps: [advanceMs: number, fields: Record<string, unknown>, answer: string][] = [
      [0, { password: TERMINAL_PASSWORD }, TerminalErrors.tooManyAttempts],
      [0, { resume: token }, 'ack'],
      [0, { resume: randomToken() }, TerminalErrors.tooManyAttempts],
      [14 * 60_000, { password: TERMINAL_PASSWORD }, TerminalErrors.tooManyAttempts],
      [0, { resume: token }, 'ack'],
      // 15 minutes after the fifth wrong password.
      [60_000, { password: TERMINAL_PASSWORD }, 'ack'],
    ];
    for (const [advanceMs, fields, answer] of steps) {
      await clock.advance(advanceMs);
      const reply = await login(ip, { phone, ...fields });
      expect(reply.type === 'ack' ? 'ack' : reply.code, JSON.stringify({ advanceMs, fields })).toBe(answer);
    }
  });

  it('counts wrong tokens and unknown phones toward the address, not toward any phone', async () => {
    const { phone, token } = await owner(201);
    const ip = '192.0.2.50';
    for (let i = 0; i < IP_FAILURES; i++) {
      const fields = i % 2 === 0 ? { phone, resume: randomToken() } : { phone: `1990000${i}`, password: 'guess' };
      expect(await login(ip, fields)).toMatchObject({ code: TerminalErrors.badCredentials });
    }
    const limited = await login(ip, { phone, password: TERMINAL_PASSWORD });
    expect(limited).toMatchObject({ code: TerminalErrors.loginRateLimited, retryAfterMs: WINDOW_MS });
    // The right password from another address: the phone itself was never locked.
    expect(await login('192.0.2.51', { phone, resume: token })).toMatchObject({ type: 'ack' });
    expect(await login('192.0.2.51', { phone, password: TERMINAL_PASSWORD })).toMatchObject({ type: 'ack' });
    await clock.advance(WINDOW_MS - 1);
    expect(await login(ip, { phone, password: TERMINAL_PASSWORD })).toMatchObject({
      code: TerminalErrors.loginRateLimited,
      retryAfterMs: 1,
    });
    await clock.advance(1);
    expect(await login(ip, { phone, password: TERMINAL_PASSWORD })).toMatchObject({ type: 'ack' });
  });

  it('closes a socket after 5 failed logins of any kind, and never for right passwords of refused users', async () => {
    const frozen = await createTerminalUser(t, { E_ID: t.demo.E_ID, IsLock: 1 });
    const ip = '192.0.2.80';
    const terminal = await from(ip);
    for (let i = 0; i < 7; i++)
      expect(await terminal.login(frozen.phone)).toMatchObject({ code: TerminalErrors.frozen });
    const failures = [
      { phone: frozen.phone, password: 'wrong-pass' },
      { phone: frozen.phone, resume: randomToken() },
      { authCode: 'a'.repeat(32) },
      { phone: '19900000001', password: 'guess' },
      { authCode: 'b'.repeat(32) },
    ];
    const codes = [];
    for (const fields of failures) codes.push((await terminal.request({ type: 'login', ...fields })).code);
    expect(codes).toEqual([
      TerminalErrors.badCredentials,
      TerminalErrors.badCredentials,
      TerminalErrors.badAuthCode,
      TerminalErrors.badCredentials,
      TerminalErrors.badAuthCode,
    ]);
    expect(await terminal.closed).toBe(TerminalCloseCodes.loginFailures);
    expect(terminal.received.at(-1)).toEqual({ type: 'closing', reason: 'login_failures' });
  });
});
