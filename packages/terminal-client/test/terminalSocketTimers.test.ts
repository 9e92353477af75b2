import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalClientErrors, TerminalSocket, type TerminalSocketOptions } from '../src/index.js';
import { FakeSocket } from './fakeSocket.js';

const CONFIG = { interval: 60, distance: 0, mode: 'interval', enabled: true, heartbeat: 30 };

let sockets: FakeSocket[];

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
});

afterEach(() => {
  vi.useRealTimers();
});

function terminal(options: Partial<TerminalSocketOptions> = {}): TerminalSocket {
  const socket = new TerminalSocket({
    connect: () => {
      const fake = new FakeSocket();
      sockets.push(fake);
      return fake;
    },
    ...options,
  });
  return socket;
}

function latest(): FakeSocket {
  return sockets.at(-1)!;
}

/** Opens the current socket and acknowledges a login with `ack`'s fields. */
async function logIn(client: TerminalSocket, ack: Record<string, unknown> = { config: CONFIG }): Promise<void> {
  latest().open();
  const login = client.login({ phone: '13800000001', password: 'x' });
  const { seq } = latest().messages().at(-1)!;
  latest().receive({ type: 'ack', seq, ...ack });
  await login;
}

function heartbeats(socket: FakeSocket): number {
  return socket.messages().filter((m) => m.type === 'heartbeat').length;
}

describe('TerminalSocket timers', () => {
  it('rejects a request unanswered within its timeout, and ignores the late reply', async () => {
    const client = terminal({ requestTimeoutMs: 2_000 });
    const pushes: unknown[] = [];
    client.on('push', (m) => pushes.push(m));
    latest().open();
    const slow = client.request({ type: 'sos' });
    const outcome = slow.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_999);
    latest().receive({ type: 'ack', seq: 99 });
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({
      code: TerminalClientErrors.timeout,
      message: 'sos: no reply within 2000 ms',
    });

    latest().receive({ type: 'ack', seq: 1 });
    expect(pushes).toEqual([]);
    const quick = client.request({ type: 'heartbeat' }, 50);
    latest().receive({ type: 'ack', seq: 2 });
    await expect(quick).resolves.toEqual({ type: 'ack', seq: 2 });
  });

  it('without a timeout (false) a request waits for its reply however long, and rejects only on the close', async () => {
    const client = terminal({ requestTimeoutMs: false });
    latest().open();
    const slow = client.request({ type: 'position' });
    const timed = client.request({ type: 'sos' }, 1_000);
    const lost = client.exchange({ type: 'heartbeat' });
    const outcomes = [slow, timed, lost].map((p) => p.catch((e: unknown) => e));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await outcomes[1]).toMatchObject({ code: TerminalClientErrors.timeout });

    latest().receive({ type: 'ack', seq: 1, stored: true });
    expect(await outcomes[0]).toEqual({ type: 'ack', seq: 1, stored: true });
    latest().drop(1006);
    expect(await outcomes[2]).toMatchObject({ code: TerminalClientErrors.closed });
  });

  it('after a login sends heartbeats at the period of the ack, follows config pushes, and stops on close', async () => {
    const client = terminal();
    await logIn(client);
    const socket = latest();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(heartbeats(socket)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(heartbeats(socket)).toBe(1);
    expect(socket.messages().at(-1)).toEqual({ seq: 2, type: 'heartbeat' });

    socket.receive({ type: 'config', config: { ...CONFIG, heartbeat: 10 } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heartbeats(socket)).toBe(2);

    socket.drop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(heartbeats(socket)).toBe(2);
  });

  it('uses a given heartbeat period, the default for a seat, and none when told so', async () => {
    const fixed = terminal({ heartbeatMs: 5_000 });
    await logIn(fixed);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heartbeats(latest())).toBe(2);

    const seat = terminal();
    await logIn(seat, { seat: { dispatchNo: 'D3' }, serverTime: 1 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(heartbeats(latest())).toBe(1);

    const silent = terminal({ heartbeatMs: false });
    await logIn(silent);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(heartbeats(latest())).toBe(0);
  });

  it('reconnects with a back-off that doubles up to its cap and resets after a login', async () => {
    const client = terminal({ reconnect: { initialMs: 1_000, maxMs: 8_000 }, random: () => 0.5 });
    const delays: number[] = [];
    client.on('reconnect', (ms) => delays.push(ms));
    let opens = 0;
    client.on('open', () => (opens += 1));

    for (let attempt = 0; attempt < 5; attempt += 1) {
      const before = sockets.length;
      latest().drop(1006);
      await vi.advanceTimersByTimeAsync(delays.at(-1)! - 1);
      expect(sockets).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(before + 1);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);

    await logIn(client);
    expect(opens).toBe(1);
    latest().drop(1001);
    expect(delays.at(-1)).toBe(1_000);
  });

  it('reconnectNow opens at once while a back-off waits, and does nothing while connected or after close()', async () => {
    const client = terminal({ reconnect: { initialMs: 8_000, maxMs: 8_000 }, random: () => 0.5 });
    latest().open();
    client.reconnectNow();
    expect(sockets).toHaveLength(1);
    latest().drop(1006);
    client.reconnectNow();
    expect(sockets).toHaveLength(2);
    // The waiting reconnect was cancelled: no third socket when its time comes.
    await vi.advanceTimersByTimeAsync(8_000);
    expect(sockets).toHaveLength(2);
    latest().drop(1006);
    client.close();
    client.reconnectNow();
    await vi.advanceTimersByTimeAsync(16_000);
    expect(sockets).toHaveLength(2);
  });

  it('jitters the delay by ±50 %', () => {
    const low = terminal({ reconnect: {}, random: () => 0 });
    const high = terminal({ reconnect: {}, random: () => 0.999 });
    const delays: number[] = [];
    low.on('reconnect', (ms) => delays.push(ms));
    high.on('reconnect', (ms) => delays.push(ms));
    sockets[0]!.drop();
    sockets[1]!.drop();
    expect(delays[0]).toBe(500);
    expect(delays[1]).toBeCloseTo(1_499, 0);
  });

  it('does not reconnect after close(), logout(), a close 1000 or 4001, a final code given, or without the option', async () => {
    const closed = terminal({ reconnect: {} });
    latest().open();
    closed.close(4999);
    const loggedOut = terminal({ reconnect: {} });
    latest().drop(1000);
    const replaced = terminal({ reconnect: {} });
    latest().drop(4001);
    const accountChanged = terminal({ reconnect: { finalCloseCodes: [4002] } });
    latest().drop(4002);
    const plain = terminal();
    latest().drop(1006);
    const before = sockets.length;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(before);
    for (const client of [closed, loggedOut, replaced, accountChanged, plain]) expect(client.isOpen).toBe(false);

    const leaving = terminal({ reconnect: {} });
    latest().open();
    const logout = leaving.logout();
    expect(latest().messages().at(-1)).toEqual({ seq: 1, type: 'logout' });
    latest().drop(4004);
    await expect(logout).rejects.toMatchObject({ code: TerminalClientErrors.closed });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(before + 1);

    const restarted = terminal({ reconnect: {} });
    latest().drop(4002);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(sockets).toHaveLength(before + 3);
    restarted.close();
  });
});
