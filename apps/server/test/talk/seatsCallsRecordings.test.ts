import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { TalkErrors, TerminalErrors } from '@intercom/contract';
import { readOggOpus } from '@intercom/media';
import { describe, expect, it } from 'vitest';
import { AuthCodes } from '../../src/talk/authCodes.js';
import { createEnterprise, enterpriseWithAccount } from '../helper.js';
import { TestTerminal, createTerminalUser, loggedIn } from '../terminals/terminalTestApp.js';
import { FAST_TALK, SPEECH, channelOf, isType, joinAll, readDown, talk, useTalkApp, waitFor } from './talkFixtures.js';

// Dispatcher seats (POST /api/Talk/AuthCode + login with authCode), private calls, and recordings.
// A floor that outlasts a loaded machine's burst. The recording test sends 107 frames 5 ms apart;
// when that takes over FAST_TALK's 1.5 s of talk, the floor goes before the last frames (14 ms
// apart: 3 frames short). A CI at load 8 recorded 106 of 107. No test here waits for a floor's timers.
const t = useTalkApp({ ...FAST_TALK, floor: { ...FAST_TALK.floor, silenceMs: 5_000, maxTalkMs: 30_000 } });

async function authCode(token = t.adminToken) {
  const res = await fetch(`${t.origin}/api/Talk/AuthCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as { BaseResult: { Code: number }; BaseData: any } };
}

async function seat(code?: string): Promise<TestTerminal> {
  const terminal = await TestTerminal.connect(t);
  const reply = await terminal.request({ type: 'login', authCode: code ?? (await authCode()).body.BaseData.authCode });
  if (reply.type !== 'ack') throw new Error(`seat refused: ${JSON.stringify(reply)}`);
  return terminal;
}

describe('dispatcher seats', () => {
  it('gives a signed-in account a one-time code for seat D<A_ID>; refuses no token, reused and expired codes', async () => {
    const unauthenticated = await fetch(`${t.origin}/api/Talk/AuthCode`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
    const { status, body } = await authCode();
    expect(status).toBe(200);
    expect(body.BaseData).toMatchObject({
      dispatchNo: `D${t.demo.A_ID}`,
      authCode: expect.stringMatching(/^[\w-]{32}$/),
    });
    expect(body.BaseData.expiresAt - Date.now()).toBeGreaterThan(55_000);
    const terminal = await TestTerminal.connect(t);
    const login = await terminal.request({ type: 'login', authCode: body.BaseData.authCode });
    expect(login).toMatchObject({ type: 'ack', seat: { dispatchNo: `D${t.demo.A_ID}`, priority: 7 } });
    const again = await TestTerminal.connect(t);
    expect(await again.request({ type: 'login', authCode: body.BaseData.authCode })).toMatchObject({
      code: TalkErrors.badAuthCode,
    });
    expect(await again.request({ type: 'login', authCode: 'x'.repeat(32) })).toMatchObject({
      code: TalkErrors.badAuthCode,
    });
    expect(await again.request({ type: 'login', authCode: 'short' })).toMatchObject({
      code: TerminalErrors.invalid,
      field: 'authCode',
    });
    expect(await again.request({ type: 'login' })).toMatchObject({ code: TerminalErrors.invalid, field: 'phone' });
    // A seat sends no reports.
    expect(await terminal.request({ type: 'status', battery: 50 })).toMatchObject({
      code: TerminalErrors.notSupported,
    });
    terminal.close();
    again.close();
  });

  it('an AuthCode expires after its time', () => {
    const codes = new AuthCodes(60_000);
    const issued = codes.issue({ A_ID: 5, E_ID: 1, S_ID: 9, name: 'D' }, 1_000);
    expect(codes.redeem(issued.authCode, 61_000)).toBeUndefined();
    const fresh = codes.issue({ A_ID: 5, E_ID: 1, S_ID: 9, name: 'D' }, 1_000);
    expect(codes.redeem(fresh.authCode, 60_999)).toMatchObject({ A_ID: 5 });
    expect(codes.redeem(fresh.authCode, 60_999)).toBeUndefined();
  });

  it('listens to any channel of its scope, pre-empts terminals, speaks as uid 0; never another tenant', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [6, 0]);
    await joinAll(members, cid);
    const dispatcher = await seat();
    const foreign = await createEnterprise(t.db);
    const { cid: theirs } = await channelOf(t, foreign.E_ID, [0]);
    expect(await dispatcher.request({ type: 'join', cid: theirs })).toMatchObject({ code: TalkErrors.notMember });
    expect(await dispatcher.request({ type: 'join', cid })).toMatchObject({ type: 'ack', priority: 7 });
    const [talker, listener] = members.map((m) => m.terminal);
    if (!talker || !listener) throw new Error('two members');
    await talker.request({ type: 'floorRequest', cid });
    await talk(talker, cid, SPEECH.slice(0, 3));
    await waitFor(() => dispatcher.frames.length === 3);
    expect(await dispatcher.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talker.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    await listener.next(isType('floorTaken', { cid, uid: 0, priority: 7 }));
    listener.frames.length = 0;
    await talk(dispatcher, cid, SPEECH.slice(0, 4));
    await waitFor(() => listener.frames.length === 4);
    expect(listener.frames.map((f) => readDown(f).speaker)).toEqual([0, 0, 0, 0]);
    for (const m of [dispatcher, talker, listener]) m.close();
  });
});

describe('private calls', () => {
  it('opens a call with its own floor, tells the callee, and ends it with hangup', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => createTerminalUser(t, { E_ID: t.demo.E_ID })));
    if (!a || !b) throw new Error('two users');
    const caller = await loggedIn(t, a.phone);
    const callee = await loggedIn(t, b.phone);
    expect(await caller.request({ type: 'call', uid: a.U_ID })).toMatchObject({ code: TalkErrors.unavailable });
    expect(await caller.request({ type: 'call', uid: 99_999_999 })).toMatchObject({ code: TalkErrors.unavailable });
    const ack = await caller.request({ type: 'call', uid: b.U_ID });
    expect(ack).toMatchObject({ type: 'ack', cid: expect.any(Number) });
    const cid = ack.cid as number;
    expect(cid).toBeGreaterThanOrEqual(0x8000_0000);
    await callee.next(isType('callStart', { cid, from: a.U_ID }));
    expect(await caller.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(caller, cid, SPEECH.slice(0, 5));
    await waitFor(() => callee.frames.length === 5);
    expect(readDown(callee.frames[0] as Buffer)).toMatchObject({ cid, speaker: a.U_ID });
    expect((await callee.request({ type: 'hangup', cid })).type).toBe('ack');
    await caller.next(isType('callEnd', { cid }));
    expect(await caller.request({ type: 'hangup', cid })).toMatchObject({ code: TalkErrors.notFound });
    caller.close();
    callee.close();
  });

  it('cannot call a user of another enterprise', async () => {
    const foreign = await createEnterprise(t.db);
    const them = await createTerminalUser(t, { E_ID: foreign.E_ID });
    const us = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const theirs = await loggedIn(t, them.phone);
    const ours = await loggedIn(t, us.phone);
    expect(await ours.request({ type: 'call', uid: them.U_ID })).toMatchObject({ code: TalkErrors.unavailable });
    expect(theirs.received.some((m) => m.type === 'callStart')).toBe(false);
    theirs.close();
    ours.close();
  });
});

describe('recordings', () => {
  it('records a burst as Ogg Opus with a row, only when the channel switch and RecordEnable are on', async () => {
    const { E_ID } = await enterpriseWithAccount(t, { role: 'admin' });
    await t.db.insertInto('sys_config').values({ E_ID, Code: 'RecordEnable', Value: 'TRUE' }).execute();
    const recorded = await channelOf(t, E_ID, [0, 0], true);
    const unrecorded = await channelOf(t, E_ID, [0, 0], false);
    for (const { cid, members } of [recorded, unrecorded]) {
      await joinAll(members, cid);
      const talker = members[0]?.terminal as TestTerminal;
      await talker.request({ type: 'floorRequest', cid });
      await talk(talker, cid, SPEECH, 5);
      await talker.request({ type: 'floorRelease', cid });
    }
    const rows = () => t.db.selectFrom('recording').selectAll().where('E_ID', '=', E_ID).execute();
    let found: Awaited<ReturnType<typeof rows>> = [];
    // The unrecorded burst ended after the recorded one, so its row would be there by now too.
    for (let i = 0; i < 100 && found.length === 0; i += 1) {
      found = await rows();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(found).toHaveLength(1);
    const row = found[0];
    expect(row).toMatchObject({ CID: recorded.cid, U_ID: recorded.members[0]?.U_ID, RType: 'group' });
    const sent = SPEECH.length * 20;
    expect(Math.abs((row?.Duration ?? 0) - sent)).toBeLessThanOrEqual(20);
    const file = path.join(t.deps.config.dataDir, 'recordings', row?.FilePath ?? '');
    const data = fs.readFileSync(file);
    expect(row?.Size).toBe(data.length);
    const parsed = readOggOpus(data);
    expect(parsed.packets).toHaveLength(SPEECH.length);
    expect(Math.abs(parsed.durationMs - sent)).toBeLessThanOrEqual(20);
    // An independent reader: opusinfo from Debian's opus-tools, where installed (.ci/run installs it).
    if (hasOpusinfo()) {
      const info = execFileSync('opusinfo', [file], { encoding: 'utf8' });
      const length = /Playback length: (\d+)m:(\d+\.\d+)s/.exec(info);
      expect(length).not.toBeNull();
      const seconds = Number(length?.[1]) * 60 + Number(length?.[2]);
      // opusinfo subtracts the pre-skip (312 samples = 6.5 ms) from the length.
      expect(Math.abs(seconds * 1000 - sent)).toBeLessThanOrEqual(20);
      expect(info).not.toMatch(/WARNING|ERROR/i);
    }
    for (const m of [...recorded.members, ...unrecorded.members]) m.terminal.close();
  });
});

function hasOpusinfo(): boolean {
  try {
    execFileSync('opusinfo', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
