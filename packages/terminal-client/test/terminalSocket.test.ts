import type { AddressInfo } from 'node:net';
import type { TerminalServerMessage } from '@intercom/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { type WebSocketServer } from 'ws';
import { TerminalClientErrors, TerminalRequestError, TerminalSocket } from '../src/index.js';

type Incoming = Record<string, unknown> & { seq: number; type: string };

/** ws 7 (which the workspace root resolves here) has only `WebSocket.Server`; ws 8 has it as well. */
const Server = (WebSocket as unknown as { Server: typeof WebSocketServer }).Server;

/** A `/terminal` stand-in on 127.0.0.1: the test scripts its answers. */
class ScriptedServer {
  readonly server = new Server({ host: '127.0.0.1', port: 0 });
  readonly received: Incoming[] = [];
  readonly frames: Buffer[] = [];
  peer: WebSocket | undefined;
  private waiters: (() => void)[] = [];

  constructor() {
    this.server.on('connection', (peer) => {
      this.peer = peer;
      // ws 8 passes (Buffer, isBinary); ws 7 (the one the workspace root resolves) a string for text.
      peer.on('message', (data: Buffer | string, isBinary?: boolean) => {
        if (isBinary === true || (isBinary === undefined && typeof data !== 'string')) this.frames.push(data as Buffer);
        else this.received.push(JSON.parse(String(data)) as Incoming);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` text messages (or frames) have arrived. */
  async waitFor(count: number, of: 'received' | 'frames' = 'received'): Promise<void> {
    while (this[of].length < count) await new Promise<void>((wake) => this.waiters.push(wake));
  }

  reply(message: Record<string, unknown> | string): void {
    this.peer!.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let server: ScriptedServer;
let client: TerminalSocket;

beforeEach(() => {
  server = new ScriptedServer();
});

afterEach(async () => {
  client?.close();
  await server.close();
});

async function connected(): Promise<TerminalSocket> {
  await new Promise((resolve) => server.server.once('listening', resolve));
  client = new TerminalSocket({ connect: () => new WebSocket(server.url) });
  await client.opened();
  return client;
}

describe('TerminalSocket over a real WebSocket', () => {
  it('numbers requests and settles each with the reply of its seq, in whatever order replies come', async () => {
    const terminal = await connected();
    const login = terminal.request({ type: 'login', phone: '13800000001', password: 'x' });
    const fix = terminal.request({ type: 'position', lat: 95, lon: 1, time: 1 });
    const sos = terminal.request({ type: 'sos', text: 'help' });
    await server.waitFor(3);
    expect(server.received.map((m) => [m.seq, m.type])).toEqual([
      [1, 'login'],
      [2, 'position'],
      [3, 'sos'],
    ]);
    expect(server.received[0]).toEqual({ seq: 1, type: 'login', phone: '13800000001', password: 'x' });

    server.reply({ type: 'ack', seq: 3, N_ID: 77 });
    server.reply({
      type: 'error',
      seq: 2,
      code: 'invalid',
      message: 'Too big: expected number to be <=90',
      field: 'lat',
      retryAfterMs: 250,
    });
    server.reply({ type: 'ack', seq: 1, serverTime: 5 });

    await expect(sos).resolves.toEqual({ type: 'ack', seq: 3, N_ID: 77 });
    await expect(login).resolves.toEqual({ type: 'ack', seq: 1, serverTime: 5 });
    const error = await fix.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TerminalRequestError);
    expect(error).toMatchObject({
      code: 'invalid',
      message: 'Too big: expected number to be <=90',
      field: 'lat',
      retryAfterMs: 250,
      reply: { seq: 2 },
    });

    const refused = terminal.exchange({ type: 'floorRequest', cid: 1 });
    await server.waitFor(4);
    server.reply({ type: 'error', seq: 4, code: 'busy', message: 'the floor is taken' });
    await expect(refused).resolves.toEqual({ type: 'error', seq: 4, code: 'busy', message: 'the floor is taken' });
  });

  it('logs in again after a reconnect with the resume token of the last password login, and forgets a refused one', async () => {
    await new Promise((resolve) => server.server.once('listening', resolve));
    client = new TerminalSocket({ connect: () => new WebSocket(server.url), reconnect: { initialMs: 10, maxMs: 10 } });
    const opened = () =>
      new Promise<void>((resolve) => {
        const off = client.on('open', () => {
          off();
          resolve();
        });
      });
    await client.opened();
    const fields = { phone: '13800000001', password: 'secret' };
    const token = 'T'.repeat(43);

    const first = client.login(fields);
    await server.waitFor(1);
    expect(server.received[0]).toEqual({ seq: 1, type: 'login', ...fields });
    server.reply({ type: 'ack', seq: 1, serverTime: 1, resume: token });
    await first;

    // The server goes away; the socket reconnects and the caller logs in again as before.
    let reopened = opened();
    server.peer!.close(1012);
    await reopened;
    const second = client.login(fields);
    await server.waitFor(2);
    expect(server.received[1]).toMatchObject({ type: 'login', ...fields, resume: token });
    server.reply({ type: 'error', seq: server.received[1]!.seq, code: 'bad_credentials', message: 'no' });
    await expect(second).rejects.toMatchObject({ code: 'bad_credentials' });

    // Refused: the token is gone, the next login sends the password alone.
    reopened = opened();
    server.peer!.close(1012);
    await reopened;
    void client.login(fields).catch(() => undefined);
    await server.waitFor(3);
    expect(server.received[2]).not.toHaveProperty('resume');
    expect(server.received[2]).toMatchObject({ type: 'login', ...fields });
    client.close();
  });

  it('rejects every pending request with a clear error when the connection closes, and reports the closing reason', async () => {
    const terminal = await connected();
    const closes: [number, string][] = [];
    terminal.on('close', (code, reason) => closes.push([code, reason]));
    const first = terminal.request({ type: 'join', cid: 4 });
    const second = terminal.request({ type: 'floorRequest', cid: 4 });
    await server.waitFor(2);
    server.reply({ type: 'closing', reason: 'password' });
    server.peer!.close(4002);

    for (const pending of [first, second]) {
      const error = (await pending.catch((e: unknown) => e)) as TerminalRequestError;
      expect(error).toBeInstanceOf(TerminalRequestError);
      expect(error.code).toBe(TerminalClientErrors.closed);
      expect(error.message).toBe('the connection closed (4002) before the reply');
    }
    expect(closes).toEqual([[4002, 'password']]);
    expect(terminal.isOpen).toBe(false);
    await expect(terminal.request({ type: 'heartbeat' })).rejects.toMatchObject({
      code: TerminalClientErrors.notConnected,
    });
  });

  it('ignores text that is not a server message and keeps answering', async () => {
    const terminal = await connected();
    const messages: TerminalServerMessage[] = [];
    terminal.on('message', (m) => messages.push(m));
    const heartbeat = terminal.request({ type: 'heartbeat' });
    await server.waitFor(1);
    for (const junk of ['{"type":', 'not json', '[1,2]', 'null', '42', '{"seq":1}']) server.reply(junk);
    server.reply({ type: 'ack', seq: 1, serverTime: 9 });
    await expect(heartbeat).resolves.toEqual({ type: 'ack', seq: 1, serverTime: 9 });
    expect(messages).toEqual([{ type: 'ack', seq: 1, serverTime: 9 }]);
  });

  it('hands pushes and seq-less errors to push, binary frames to frame as bytes, and sends frames as binary', async () => {
    const terminal = await connected();
    const pushes: TerminalServerMessage[] = [];
    const frames: Uint8Array[] = [];
    terminal.on('push', (m) => pushes.push(m));
    terminal.on('frame', (bytes) => frames.push(bytes));
    const join = terminal.request({ type: 'join', cid: 42 });
    await server.waitFor(1);
    server.reply({ type: 'floorTaken', cid: 42, uid: 7, name: 'Seven', priority: 1 });
    server.reply({ type: 'error', seq: null, code: 'bad_frame', message: 'bad frame' });
    server.peer!.send(Buffer.from([1, 0, 0, 0, 42, 0, 0, 0, 7, 0, 5, 0xaa]), { binary: true });
    server.reply({ type: 'ack', seq: 1, cid: 42, priority: 3 });
    await join;

    expect(pushes).toEqual([
      { type: 'floorTaken', cid: 42, uid: 7, name: 'Seven', priority: 1 },
      { type: 'error', seq: null, code: 'bad_frame', message: 'bad frame' },
    ]);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toBeInstanceOf(Uint8Array);
    expect([...frames[0]!]).toEqual([1, 0, 0, 0, 42, 0, 0, 0, 7, 0, 5, 0xaa]);

    expect(terminal.sendFrame(new Uint8Array([1, 0, 0, 0, 42, 0, 5, 0xbb]))).toBe(true);
    await server.waitFor(1, 'frames');
    expect([...server.frames[0]!]).toEqual([1, 0, 0, 0, 42, 0, 5, 0xbb]);
  });
});
