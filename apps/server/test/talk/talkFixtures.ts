import { speechPackets } from '@intercom/media';
import { decodeAudioDown, encodeAudioUp, frameKind } from '@intercom/terminal-client';
import type { TalkOptions } from '../../src/talk/talkService.js';
import { FAST_HUB, sleep } from '../hub/hubTestApp.js';
import {
  FAST_TERMINALS,
  TestTerminal,
  createTerminalUser,
  loggedIn,
  startTerminalApp,
  type ServerMessage,
  type TerminalTestApp,
} from '../terminals/terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

/** Short floor timings so silence, timeout and the pre-emption grace happen within a test. */
export const FAST_TALK = {
  tickMs: 10,
  floor: { silenceMs: 400, maxTalkMs: 1_500, revokeGraceMs: 50 },
  framesPerSecond: 60,
  framesBurst: 100,
  floodCutAfter: 40,
};

/** Terminal timings for talk and video tests: a call or a stream outlives the heartbeat timeout. */
export const TALK_TERMINALS = { ...FAST_TERMINALS, heartbeatTimeoutMs: 30_000 };

/** The /terminal app of a talk or video test file, with FAST_TALK's timings unless `talk` says otherwise. */
export function useTalkApp(talk: Partial<TalkOptions> = FAST_TALK): TerminalTestApp {
  return useTestApp(() => startTerminalApp(TALK_TERMINALS, FAST_HUB, {}, { talk }));
}

/** Real speech: 20 ms Opus packets of a recorded phrase. */
export const SPEECH = speechPackets('unit-three');

/** A channel with members (each with its priority), straight into the tables. */
export async function createChannel(
  t: TerminalTestApp,
  E_ID: number,
  members: { U_ID: number; priority?: number }[],
  record = false,
): Promise<number> {
  const row = await t.db
    .insertInto('channel')
    .values({
      E_ID,
      CName: `C${Date.now() % 100_000}${Math.floor(Math.random() * 1000)}`,
      CTypeID: 106,
      Note: '',
      Priority: 0,
      VideoEnable: 0,
      Record: record ? 1 : 0,
      CreatedAt: Date.now(),
    })
    .returning('CID')
    .executeTakeFirstOrThrow();
  if (members.length > 0) {
    await t.db
      .insertInto('channel_member')
      .values(members.map((m) => ({ CID: row.CID, UserID: m.U_ID, E_ID, Priority: m.priority ?? 0 })))
      .execute();
  }
  return row.CID;
}

export interface Member {
  U_ID: number;
  terminal: TestTerminal;
}

/** `count` logged-in terminals of an enterprise, members of one new channel (priorities in order). */
export async function channelOf(
  t: TerminalTestApp,
  E_ID: number,
  priorities: number[],
  record = false,
): Promise<{ cid: number; members: Member[] }> {
  const users = await Promise.all(priorities.map(() => createTerminalUser(t, { E_ID })));
  const cid = await createChannel(
    t,
    E_ID,
    users.map((u, i) => ({ U_ID: u.U_ID, priority: priorities[i] })),
    record,
  );
  const members = await Promise.all(users.map(async (u) => ({ U_ID: u.U_ID, terminal: await loggedIn(t, u.phone) })));
  return { cid, members };
}

/** A dispatcher seat of the app's admin: an AuthCode from the API, then `login` with it on /terminal. */
export async function seatOf(t: TerminalTestApp, token = t.adminToken): Promise<TestTerminal> {
  const res = await fetch(`${t.origin}/api/Talk/AuthCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const code = ((await res.json()) as { BaseData: { authCode: string } }).BaseData.authCode;
  const terminal = await TestTerminal.connect(t);
  const reply = await terminal.request({ type: 'login', authCode: code });
  if (reply.type !== 'ack') throw new Error(`seat refused: ${JSON.stringify(reply)}`);
  return terminal;
}

/** A new channel of logged-in terminals (priorities in order), all joined; `terminals` in the same order. */
export async function joinedChannel<P extends number[]>(
  t: TerminalTestApp,
  E_ID: number,
  priorities: [...P],
): Promise<{ cid: number; members: Member[]; terminals: { [K in keyof P]: TestTerminal } }> {
  const { cid, members } = await channelOf(t, E_ID, priorities);
  await joinAll(members, cid);
  return { cid, members, terminals: members.map((m) => m.terminal) as { [K in keyof P]: TestTerminal } };
}

export async function joinAll(members: Member[], cid: number): Promise<void> {
  for (const { terminal } of members) {
    const reply = await terminal.request({ type: 'join', cid });
    if (reply.type !== 'ack') throw new Error(`join refused: ${JSON.stringify(reply)}`);
  }
}

/** Sends speech packets as audio frames of `cid`, one every `gapMs` (0: all at once). */
export async function talk(terminal: TestTerminal, cid: number, packets: Buffer[], gapMs = 0): Promise<void> {
  for (const [i, packet] of packets.entries()) {
    terminal.socket.send(encodeAudioUp({ cid, seq: i, opus: packet }), { binary: true });
    if (gapMs > 0) await sleep(gapMs);
  }
}

/** A downstream audio frame's fields; anything else fails the test. */
export function readDown(frame: Buffer) {
  const down = decodeAudioDown(frame);
  if (!down) throw new Error(`not an audio frame: ${frame.subarray(0, 12).toString('hex')}`);
  return { kind: frameKind(frame), ...down };
}

export async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

export const isType =
  (type: string, fields: Record<string, unknown> = {}) =>
  (m: ServerMessage) =>
    m.type === type && Object.entries(fields).every(([k, v]) => m[k] === v);
