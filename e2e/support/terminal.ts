import { TerminalSocket } from '@intercom/terminal-client';
import { afterAll, expect, inject } from 'vitest';
import WebSocket from 'ws';
import { callApi, postJson } from './apiLogin.js';

/** The password the browser tests give the terminal users they create. */
export const TERMINAL_PASSWORD = 'Live-2026';

interface Answer {
  BaseResult: { Code: number; Message: string };
  BaseData?: { UserID: number };
}

/** A terminal user made through the API, as user management would (POST /api/UserInfo/Save); returns its id. */
export async function createTerminalUser(token: string, name: string, phone: string): Promise<number> {
  const response = await fetch(new URL('/api/UserInfo/Save', inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: new URLSearchParams({ UserID: '0', UserName: name, MobilePhone: phone, Password: TERMINAL_PASSWORD }),
  });
  const answer = (await response.json()) as Answer;
  expect(answer.BaseResult.Code, `create ${name}: ${answer.BaseResult.Message}`).toBe(8888);
  return answer.BaseData!.UserID;
}

/**
 * The terminal users one file makes and the terminals it logs in, removed after its tests: the
 * terminals log out, then the users are deleted (with their open alarms resolved, below). `stamp`
 * keeps names and phones apart from other runs'; `token` is the admin's, set before making users.
 */
export function useTestTerminals<T extends Terminal = Terminal>() {
  const made = { stamp: String(Date.now()).slice(-6), users: [] as number[], terminals: [] as T[], token: '' };
  afterAll(async () => {
    for (const terminal of made.terminals) await terminal.logout().catch(() => undefined);
    if (made.token) await deleteUsers(made.token, made.users);
  });
  return made;
}

/**
 * Deletes users the tests made (`DELETE /api/UserInfo/Delete/{id}`), resolving their open alarms
 * first: an unhandled SOS outlives its user and its banner would cover every later file's map (the
 * e2e server is shared).
 */
export async function deleteUsers(token: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const open = await callApi(token, 'GET', '/api/Notification/QueryData', {
    jsonCondition: JSON.stringify({ U_ID: { in: ids }, State: { ne: 'resolved' } }),
    pageSize: '500',
  });
  const alarms = ((open.body.Data ?? []) as { N_ID: number }[]).map((a) => a.N_ID);
  if (alarms.length > 0) await postJson(token, '/api/Notification/Resolve', { ids: alarms, comment: 'e2e cleanup' });
  for (const id of ids) {
    await fetch(new URL(`/api/UserInfo/Delete/${id}`, inject('baseUrl')), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
  }
}

/** An open WebSocket to the server's `/terminal`, not logged in yet. */
export async function openTerminalSocket(): Promise<WebSocket> {
  const socket = new WebSocket(new URL('/terminal', inject('baseUrl').replace(/^http/, 'ws')));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/**
 * A terminal on the `/terminal` WebSocket (docs/terminal-protocol.md): login, messages, logout.
 * Pushes (messages without `seq`) and binary (audio) frames go to onPush and onBinary, which a
 * subclass may watch (support/rawTerminal.ts).
 */
export class Terminal {
  protected readonly client: TerminalSocket;

  constructor(protected readonly socket: WebSocket) {
    // No heartbeats: a test's terminal says only what the test sends (it lives well under 90 s).
    this.client = new TerminalSocket({ connect: () => socket, heartbeatMs: false, requestTimeoutMs: 30_000 });
    this.client.on('frame', (bytes) => this.onBinary(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    this.client.on('push', (message) => this.onPush(message));
  }

  protected onBinary(_frame: Buffer): void {}

  protected onPush(_message: Record<string, unknown>): void {}

  static async login<T extends Terminal>(
    this: new (socket: WebSocket) => T,
    phone: string,
    device = 'e2e',
    password = TERMINAL_PASSWORD,
  ): Promise<T> {
    const terminal = new this(await openTerminalSocket());
    const ack = await terminal.send({ type: 'login', phone, password, device });
    expect(ack.type, `login of ${phone}: ${String(ack.message)}`).toBe('ack');
    return terminal;
  }

  /** Sends with the next seq; resolves with its reply, ack or error. */
  send(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.client.exchange(message);
  }

  async logout(): Promise<void> {
    const closed = new Promise((resolve) => this.client.on('close', resolve));
    await this.send({ type: 'logout' });
    await closed;
  }

  close(): void {
    this.client.close();
  }
}
