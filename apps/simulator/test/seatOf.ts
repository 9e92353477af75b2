import { decodeAudioDown } from '@intercom/terminal-client';
import { adminLogin } from '../src/adminApi.js';
import { TestTerminal, type TerminalTestApp } from '../../server/test/terminals/terminalTestApp.js';

/** A console session of the demo admin (a fresh login: it replaces the admin's previous one). */
export function adminToken(t: TerminalTestApp): Promise<string> {
  return adminLogin(t.origin, t.demo.username, t.demo.password, t.demo.code);
}

/** A dispatcher seat of the demo admin on /terminal. */
export async function seatOf(t: TerminalTestApp, token?: string): Promise<TestTerminal> {
  const res = await fetch(`${t.origin}/api/Talk/AuthCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token ?? (await adminToken(t))}` },
  });
  const code = ((await res.json()) as { BaseData: { authCode: string } }).BaseData.authCode;
  const seat = await TestTerminal.connect(t);
  await seat.request({ type: 'login', authCode: code });
  // A test seat sends no heartbeats of its own; the test server's timeout is 2 s.
  const beat = setInterval(() => seat.send({ type: 'heartbeat' }), 500);
  void seat.closed.then(() => clearInterval(beat));
  return seat;
}

/** Audio frames a seat heard in `cid` (from the `from`-th frame on), with their speakers. */
export function heard(seat: TestTerminal, cid: number, from = 0): { speaker: number; bytes: number }[] {
  return seat.frames.slice(from).flatMap((frame) => {
    const audio = decodeAudioDown(frame);
    return audio?.cid === cid ? [{ speaker: audio.speaker, bytes: audio.opus.length }] : [];
  });
}

/** A JSON POST of the console API; resolves with the envelope's BaseData, fails unless it succeeded. */
export async function postJson<T>(t: TerminalTestApp, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${t.origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { BaseResult?: { Code: number; Message: string }; BaseData?: T };
  if (envelope.BaseResult?.Code !== 8888) throw new Error(`${path}: ${JSON.stringify(envelope.BaseResult)}`);
  return envelope.BaseData as T;
}
