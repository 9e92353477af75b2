import { TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { until } from '../hub/hubTestApp.js';
import { TestTerminal, createTerminalUser, fix, loggedIn, useTerminalApp } from './terminalTestApp.js';

// The JSON protocol of /terminal: framing, validation, limits, logins (docs/terminal-protocol.md).
const t = useTerminalApp({ messagesPerSecond: 20, messagesBurst: 20, floodCloseAfter: 30, loginMaxFailures: 3 });

const user = (input: Parameters<typeof createTerminalUser>[1] = { E_ID: 0 }) =>
  createTerminalUser(t, { ...input, E_ID: input.E_ID || t.demo.E_ID });

describe('framing and validation', () => {
  it('answers malformed JSON, non-objects and audio before login with an error and keeps the socket', async () => {
    const terminal = await TestTerminal.connect(t);
    terminal.socket.send('{"seq":1,"type":');
    await terminal.next((m) => m.type === 'error' && m.code === TerminalErrors.badJson && m.seq === null);
    terminal.socket.send('[1,2,3]');
    await terminal.next((m) => m.type === 'error' && m.code === TerminalErrors.invalid);
    terminal.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await terminal.next((m) => m.type === 'error' && m.code === TerminalErrors.notLoggedIn);
    const beat = await terminal.request({ type: 'heartbeat' });
    expect(beat).toMatchObject({ type: 'ack', serverTime: expect.any(Number) });
    terminal.close();
  });

  it('refuses an oversize frame without reading it, and closes on one above 1 MiB', async () => {
    const terminal = await TestTerminal.connect(t);
    terminal.send({ type: 'heartbeat', pad: 'x'.repeat(40_000) });
    await terminal.next((m) => m.type === 'error' && m.code === TerminalErrors.tooLarge);
    expect((await terminal.request({ type: 'heartbeat' })).type).toBe('ack');
    terminal.socket.send('x'.repeat(1024 * 1024 + 1));
    expect(await terminal.closed).toBe(TerminalCloseCodes.tooBig);
  });

  it('names unknown types, missing types and invalid fields with the seq', async () => {
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.request({ type: 'teleport' })).toMatchObject({
      type: 'error',
      code: TerminalErrors.unknownType,
    });
    expect(await terminal.request({ type: 'floorRequest' })).toMatchObject({
      type: 'error',
      code: TerminalErrors.invalid,
      field: 'cid',
    });
    expect(await terminal.request({ nothing: true })).toMatchObject({ code: TerminalErrors.invalid, field: 'type' });
    expect(await terminal.request({ type: 'login', phone: 5 })).toMatchObject({
      code: TerminalErrors.invalid,
      field: 'phone',
    });
    terminal.close();
  });

  it('asks for a login before reports', async () => {
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.request({ type: 'position', ...fix() })).toMatchObject({ code: TerminalErrors.notLoggedIn });
    terminal.close();
  });

  it('refuses absurd fixes: latitude 91, far future, NaN-like values', async () => {
    const { phone } = await user();
    const terminal = await loggedIn(t, phone);
    expect(await terminal.request({ type: 'position', ...fix(), lat: 91 })).toMatchObject({
      code: TerminalErrors.invalid,
      field: 'lat',
    });
    expect(await terminal.request({ type: 'position', ...fix(Date.now() + 86_400_000) })).toMatchObject({
      field: 'time',
    });
    expect(await terminal.request({ type: 'position', ...fix(), lon: 'east' })).toMatchObject({ field: 'lon' });
    expect(await terminal.request({ type: 'position', ...fix(), speed: -3 })).toMatchObject({ field: 'speed' });
    terminal.socket.send('{"seq":9,"type":"position","lat":NaN,"lon":1,"time":1}');
    await terminal.next((m) => m.code === TerminalErrors.badJson);
    terminal.close();
  });
});

describe('login', () => {
  it('acknowledges a login with the user, its configuration and the server time', async () => {
    const { phone, U_ID } = await user();
    const terminal = await TestTerminal.connect(t);
    const ack = await terminal.login(phone);
    expect(ack).toMatchObject({
      type: 'ack',
      user: { U_ID, E_ID: t.demo.E_ID, Phone: phone },
      config: { interval: 60, distance: 0, mode: 'interval', enabled: true, heartbeat: 30 },
    });
    expect(await terminal.login(phone)).toMatchObject({ code: TerminalErrors.alreadyLoggedIn });
    terminal.close();
  });

  it('gives unknown phones and wrong passwords one answer, then locks the phone', async () => {
    const { phone } = await user();
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.login('19999999999')).toMatchObject({ code: TerminalErrors.badCredentials });
    for (let i = 0; i < 3; i++)
      expect(await terminal.login(phone, 'wrong-pass')).toMatchObject({ code: TerminalErrors.badCredentials });
    const locked = await terminal.login(phone);
    expect(locked).toMatchObject({ code: TerminalErrors.tooManyAttempts, retryAfterMs: expect.any(Number) });
    terminal.close();
  });

  it('refuses frozen and expired users after the password is right', async () => {
    const frozen = await user({ E_ID: 0, IsLock: 1 });
    const expired = await user({ E_ID: 0, ExpireAt: Date.now() - 1000 });
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.login(frozen.phone)).toMatchObject({ code: TerminalErrors.frozen });
    expect(await terminal.login(expired.phone)).toMatchObject({ code: TerminalErrors.expired });
    expect(await terminal.login(frozen.phone, 'wrong-pass')).toMatchObject({ code: TerminalErrors.badCredentials });
    terminal.close();
  });

  it('closes the old socket when the same phone logs in elsewhere; the user stays online', async () => {
    const { phone, U_ID } = await user();
    const first = await loggedIn(t, phone);
    const second = await loggedIn(t, phone);
    await first.next((m) => m.type === 'closing' && m.reason === 'replaced');
    expect(await first.closed).toBe(TerminalCloseCodes.replaced);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.live.user(t.demo.E_ID, U_ID)?.online).toBe(true);
    expect((await second.request({ type: 'position', ...fix() })).type).toBe('ack');
    second.close();
  });

  it('logs out: ack, then a normal close, and the user is offline', async () => {
    const { phone, U_ID } = await user();
    const terminal = await loggedIn(t, phone);
    expect(await terminal.request({ type: 'logout' })).toMatchObject({ type: 'ack' });
    expect(await terminal.closed).toBe(1000);
    await until(() => t.live.user(t.demo.E_ID, U_ID)?.online === false, 'offline');
  });

  it('closes a socket that never logs in', async () => {
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.closed).toBe(TerminalCloseCodes.loginTimeout);
    expect(terminal.received.at(-1)).toMatchObject({ type: 'closing', reason: 'login_timeout' });
  });
});

describe('limits per connection', () => {
  it('rate-limits a flood, closes it as flooding, and never disturbs another terminal', async () => {
    const calm = await loggedIn(t, (await user()).phone);
    const flooder = await loggedIn(t, (await user()).phone);
    for (let i = 0; i < 80; i++) flooder.send({ type: 'heartbeat' });
    const calmAck = await calm.request({ type: 'position', ...fix() });
    expect(calmAck.type).toBe('ack');
    await flooder.next((m) => m.code === TerminalErrors.rateLimited && typeof m.seq === 'number');
    expect(await flooder.closed).toBe(TerminalCloseCodes.policy);
    expect(flooder.received.some((m) => m.type === 'closing' && m.reason === 'flooding')).toBe(true);
    expect((await calm.request({ type: 'heartbeat' })).type).toBe('ack');
    calm.close();
  });

  it('keeps a terminal sending garbage from touching the others', async () => {
    const good = await loggedIn(t, (await user()).phone);
    const bad = await TestTerminal.connect(t);
    const acks = [];
    for (let i = 0; i < 10; i++) {
      bad.socket.send(i % 2 ? '\u0000\u0001' : '{"seq":"x","type":null}');
      acks.push(good.request({ type: 'position', ...fix(Date.now() - 1000 + i) }));
    }
    expect((await Promise.all(acks)).every((m) => m.type === 'ack')).toBe(true);
    good.close();
    bad.close();
  });
});
