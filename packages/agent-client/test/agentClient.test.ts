import type { MonitorAgentEvent, TalkAgentEvent } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { AgentClient, AgentCommandError, ExponentialBackoff, type AgentClientOptions } from '../src/index.js';
import { FakeAgentSocket, ManualTimers } from '../src/testing.js';

/** A client on fake sockets and hand-driven time; `sockets` are the ones it opened, in order. */
function setup<E extends { event: string } = TalkAgentEvent>(options: Partial<AgentClientOptions> = {}) {
  const timers = new ManualTimers();
  const sockets: FakeAgentSocket[] = [];
  const client = new AgentClient<E>({
    connect: () => {
      const socket = new FakeAgentSocket();
      sockets.push(socket);
      return socket;
    },
    timers,
    timeoutMs: 1_000,
    ...options,
  });
  const seen = { events: [] as E[], invalid: [] as unknown[], closes: [] as number[], delays: [] as number[] };
  client.on('event', (event) => seen.events.push(event));
  client.on('invalid', (data) => seen.invalid.push(data));
  client.on('close', (code) => seen.closes.push(code));
  client.on('reconnect', (delayMs) => seen.delays.push(delayMs));
  client.start();
  const socket = () => sockets.at(-1)!;
  return { client, timers, sockets, socket, seen };
}

/** Connected: the first socket accepted. */
function connected<E extends { event: string } = TalkAgentEvent>(options: Partial<AgentClientOptions> = {}) {
  const rig = setup<E>(options);
  rig.socket().accept();
  return rig;
}

describe('AgentClient: commands and replies by id', () => {
  it('numbers the commands and settles each with the reply of its id, whatever the order', async () => {
    const { client, socket } = connected();
    const login = client.command('Login', { Uid: 'admin' });
    const info = client.request('LoginInfo');
    expect(socket().sent).toEqual([
      { cmd: 'Login', id: 1, Uid: 'admin' },
      { cmd: 'LoginInfo', id: 2 },
    ]);
    socket().push({ id: 2, ok: true, loggedIn: false });
    socket().push({ id: 1, ok: false, code: 'bad_auth_code', message: 'expired' });
    await expect(info).resolves.toEqual({ id: 2, ok: true, loggedIn: false });
    const refused = await login.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AgentCommandError);
    expect(refused).toMatchObject({ code: 'bad_auth_code', message: 'expired' });
    expect(client.waiting).toBe(0);
  });

  it('a reply that never comes fails with timeout when its time is up, not before', async () => {
    const { client, timers } = connected();
    let settled: unknown;
    const late = client.command('GroupCall', { cid: 42 }).catch((error: unknown) => (settled = error));
    timers.advance(999);
    await Promise.resolve();
    expect(settled).toBeUndefined();
    timers.advance(1);
    await late;
    expect(settled).toMatchObject({ code: 'timeout' });
    expect(client.waiting).toBe(0);
  });

  it('a reply with an id nobody waits for is ignored; the waiting command still gets its own', async () => {
    const { client, socket, seen } = connected();
    const messages: unknown[] = [];
    client.on('message', (message) => messages.push(message));
    const call = client.command('PrivateCall', { uid: 9 });
    socket().push({ id: 77, ok: true, cid: 1 });
    socket().push({ id: null, ok: false, code: 'bad_json' });
    expect(client.waiting).toBe(1);
    socket().answer({ cid: 2147483649 });
    await expect(call).resolves.toMatchObject({ cid: 2147483649 });
    expect(messages).toHaveLength(3);
    expect(seen.events).toEqual([]);
  });

  it('the socket closing fails the waiting commands with closed; a command while down fails at once', async () => {
    const { client, socket, seen } = connected();
    const waiting = client.command('ApplyMic').catch((error: unknown) => error);
    socket().drop();
    expect(await waiting).toMatchObject({ code: 'closed' });
    expect(seen.closes).toEqual([1006]);
    await expect(client.command('FreeMic')).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('maps every failure through the caller error type', async () => {
    class TalkLikeError extends Error {
      constructor(readonly code: string) {
        super(code);
      }
    }
    const { client } = setup({ error: (code) => new TalkLikeError(code === 'not_connected' ? 'down' : code) });
    const error = await client.command('LoginInfo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TalkLikeError);
    expect(error).toMatchObject({ code: 'down' });
  });
});

describe('AgentClient: events and frames', () => {
  it('delivers pushes as typed events in order, and binary frames as bytes', () => {
    const { client, socket, seen } = connected();
    const frames: number[][] = [];
    client.on('frame', (bytes) => frames.push([...bytes]));
    socket().push({ event: 'floorTaken', cid: 42, uid: 7, name: 'Patrol 7', priority: 3 });
    socket().push(new Uint8Array([2, 0, 0, 0, 7]).buffer);
    socket().push({ event: 'floorIdle', cid: 42 });
    expect(seen.events).toEqual([
      { event: 'floorTaken', cid: 42, uid: 7, name: 'Patrol 7', priority: 3 },
      { event: 'floorIdle', cid: 42 },
    ]);
    expect(frames).toEqual([[2, 0, 0, 0, 7]]);
  });

  it('the monitor service has its own event type', () => {
    const { socket, seen } = connected<MonitorAgentEvent>();
    socket().push({ event: 'update', state: 'success', version: '0.2.0' });
    expect(seen.events.map((event) => event.state)).toEqual(['success']);
  });

  it('refuses frames that are no protocol message without throwing, and goes on', async () => {
    const { client, socket, seen } = connected();
    const pending = client.command('LoginInfo');
    const bad = ['not json', 'null', '[1,2]', '"text"', '{"hello":1}', '{"id":"1","ok":true}', '{"id":1.5,"ok":true}'];
    for (const text of bad) expect(() => socket().push(text)).not.toThrow();
    expect(seen.invalid).toEqual(bad);
    expect(seen.events).toEqual([]);
    socket().answer({ loggedIn: true });
    await expect(pending).resolves.toMatchObject({ loggedIn: true });
  });
});

describe('AgentClient: reconnect with back-off', () => {
  const backoff = () => new ExponentialBackoff({ initialMs: 1_000, maxMs: 8_000, random: () => 0 });

  it('an agent that is not there is tried again after 1, 2, 4, 8, 8 s; the first attempt that opens ends it', () => {
    const { client, timers, sockets, seen } = setup({ reconnect: backoff });
    for (let i = 0; i < 5; i += 1) {
      sockets.at(-1)!.refuse();
      const before = sockets.length;
      timers.advance(seen.delays.at(-1)! - 1);
      expect(sockets).toHaveLength(before);
      timers.advance(1);
      expect(sockets).toHaveLength(before + 1);
    }
    expect(seen.delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    sockets.at(-1)!.accept();
    expect(client.isOpen).toBe(true);
    expect(timers.pending).toBe(0);
  });

  it('after a connection that opened is lost, the waits start again at 1 s', () => {
    const { sockets, timers, seen } = setup({ reconnect: backoff });
    sockets[0]!.refuse();
    timers.advance(1_000);
    sockets[1]!.refuse();
    timers.advance(2_000);
    sockets[2]!.accept();
    sockets[2]!.drop();
    expect(seen.delays).toEqual([1_000, 2_000, 1_000]);
  });

  it('jitter only shortens a wait, by at most a fifth', () => {
    const schedule = new ExponentialBackoff({ initialMs: 1_000, random: () => 0.999 });
    expect([schedule.next(), schedule.next()]).toEqual([800, 1_600]);
  });

  it('stop ends the retries and fails nothing twice; start begins a fresh schedule', () => {
    const { client, timers, sockets, seen } = setup({ reconnect: backoff });
    sockets[0]!.refuse();
    sockets.length = 0;
    client.stop();
    timers.advance(60_000);
    expect(sockets).toHaveLength(0);
    client.start();
    expect(sockets).toHaveLength(1);
    sockets[0]!.refuse();
    expect(seen.delays).toEqual([1_000, 1_000]);
  });

  it('reconnectNow tries at once while waiting, unless the last attempt is too recent', () => {
    const { client, timers, sockets } = setup({ reconnect: backoff });
    sockets[0]!.refuse();
    expect(client.reconnectNow(2_000)).toBe(false);
    timers.advance(500);
    expect(client.reconnectNow(400)).toBe(true);
    expect(sockets).toHaveLength(2);
    // The retry planned for 1 s was cancelled: no third attempt while the second is under way.
    timers.advance(1_000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.accept();
    expect(client.reconnectNow()).toBe(false);
  });

  it('without reconnect a closed client stays closed', () => {
    const { sockets, timers, seen } = setup();
    sockets[0]!.refuse();
    timers.advance(120_000);
    expect(sockets).toHaveLength(1);
    expect(seen.delays).toEqual([]);
  });
});
