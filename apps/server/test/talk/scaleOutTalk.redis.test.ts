import { TalkErrors, TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed, createEnterprise, loginAdmin } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { startScaleOut } from '../terminals/scaleOutApps.js';
import { channelAcross as channelAcrossBoth } from './scaleOutChannel.js';
import { TestTerminal, loggedIn } from '../terminals/terminalTestApp.js';
import { FAST_TALK, SPEECH, TALK_TERMINALS, isType, readDown, talk, waitFor, type Member } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Two server instances on the real Redis (DESIGN.md sections 7 and 9): one floor per channel across
// both (a lease with a fencing token), audio and floor events crossing on the bus, AuthCodes
// redeemable on either instance.
const s = useTestApp(() =>
  startScaleOut(TALK_TERMINALS, {
    ...FAST_TALK,
    floor: { ...FAST_TALK.floor, silenceMs: 1_000, maxTalkMs: 10_000 },
    leaseMs: LEASE_MS,
    callAnswerMs: 300,
  }),
);
// Long enough that a test process stalled by CI's load (servers and terminals share its event loop)
// neither misses a renewal nor hears silence while a member talks.
const LEASE_MS = 1_500;

/** A channel both instances know, its members logged in on the instance named for each. */
function channelAcross(members: { on: 'a' | 'b'; priority?: number }[]): Promise<{ cid: number; members: Member[] }> {
  return channelAcrossBoth(s, members);
}

function terminals(members: Member[]): TestTerminal[] {
  return members.map((m) => m.terminal);
}

describe('one channel across two instances', () => {
  it('a terminal on A and one on B hear each other, every frame in order, with the floor events', async () => {
    const { cid, members } = await channelAcross([{ on: 'a' }, { on: 'b' }]);
    const [onA, onB] = terminals(members);
    if (!onA || !onB) throw new Error('two members');
    expect(await onA.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await onB.next(isType('floorTaken', { cid, uid: members[0]?.U_ID }));
    const burst = SPEECH.slice(0, 30);
    await talk(onA, cid, burst, 2);
    await waitFor(() => onB.frames.length === burst.length);
    expect(onB.frames.map((f) => readDown(f).seq)).toEqual(burst.map((_, i) => i));
    expect(onB.frames.map((f) => readDown(f).opus)).toEqual(burst);
    expect(readDown(onB.frames[0] as Buffer)).toMatchObject({ cid, speaker: members[0]?.U_ID });
    // A busy answer crosses too: the floor is taken on A.
    expect(await onB.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    expect((await onA.request({ type: 'floorRelease', cid })).type).toBe('ack');
    await onB.next(isType('floorIdle', { cid }));
    // The idle comes after the burst's last frame for the listener on the other instance.
    expect(onB.arrivals.lastIndexOf('frame')).toBeLessThan(onB.arrivals.indexOf('floorIdle'));

    expect(await onB.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(onB, cid, SPEECH.slice(0, 10), 2);
    await waitFor(() => onA.frames.length === 10);
    expect(readDown(onA.frames[9] as Buffer)).toMatchObject({ cid, speaker: members[1]?.U_ID, seq: 9 });
    expect(onB.frames).toHaveLength(30);
    for (const t of [onA, onB]) t.close();
  });

  it('simultaneous floor requests on A and B: exactly one is granted, every time', async () => {
    const { cid, members } = await channelAcross([{ on: 'a' }, { on: 'b' }, { on: 'a' }, { on: 'b' }]);
    const all = terminals(members);
    for (let round = 0; round < 10; round++) {
      const replies = await Promise.all(all.map((t) => t.request({ type: 'floorRequest', cid })));
      const granted = replies.filter((r) => r.granted === true);
      expect(granted, JSON.stringify(replies)).toHaveLength(1);
      expect(replies.filter((r) => r.code === TalkErrors.busy)).toHaveLength(all.length - 1);
      const winner = all[replies.indexOf(granted[0] as (typeof replies)[number])] as TestTerminal;
      const idleBefore = all.map((t) => t.received.filter(isType('floorIdle')).length);
      await winner.request({ type: 'floorRelease', cid });
      for (const [i, t] of all.entries()) {
        await waitFor(() => t.received.filter(isType('floorIdle')).length > (idleBefore[i] ?? 0));
      }
    }
    for (const t of all) t.close();
  });

  it('a higher priority on B pre-empts a talker on A, whose later frames nobody hears', async () => {
    const { cid, members } = await channelAcross([
      { on: 'a', priority: 2 },
      { on: 'b', priority: 5 },
      { on: 'b', priority: 0 },
      { on: 'a', priority: 0 },
    ]);
    const [low, high, listenerB, listenerA] = terminals(members);
    if (!low || !high || !listenerB || !listenerA) throw new Error('four members');
    expect(await low.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await listenerB.next(isType('floorTaken', { uid: members[0]?.U_ID }));
    expect(await listenerB.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    expect(await high.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await low.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    for (const t of [low, listenerA, listenerB]) {
      await t.next(isType('floorTaken', { cid, uid: members[1]?.U_ID, priority: 5 }));
    }
    const heardA = listenerA.frames.length;
    const heardB = listenerB.frames.length;
    await talk(low, cid, SPEECH.slice(0, 5));
    await talk(high, cid, SPEECH.slice(0, 3), 2);
    await waitFor(() => listenerA.frames.length === heardA + 3 && listenerB.frames.length === heardB + 3);
    await sleep(100);
    for (const t of [listenerA, listenerB]) {
      expect(t.frames.slice(-3).map((f) => readDown(f).speaker)).toEqual([1, 2, 3].map(() => members[1]?.U_ID));
    }
    expect(listenerA.frames).toHaveLength(heardA + 3);
    for (const t of [low, high, listenerA, listenerB]) t.close();
  });

  it('a member removed on A stops hearing the channel on B at once', async () => {
    const { cid, members } = await channelAcross([{ on: 'a' }, { on: 'b' }]);
    const [talker, removed] = terminals(members);
    if (!talker || !removed) throw new Error('two members');
    const api = authed(s.a.app, await loginAdmin(s.a));
    const res = await api.postJson('/api/THChannel/CMemberChange', {
      cid,
      action: 'remove',
      uids: [members[1]?.U_ID],
    });
    expect(res.statusCode, res.body).toBe(200);
    await removed.next(isType('channelLeft', { cid, reason: 'removed' }));
    await talker.request({ type: 'floorRequest', cid });
    await talk(talker, cid, SPEECH.slice(0, 5));
    await sleep(150);
    expect(removed.frames).toHaveLength(0);
    // Separate SQLite databases: only A's knows of the removal.
    const refusal = s.shared ? TalkErrors.notMember : TalkErrors.notJoined;
    expect(await removed.request({ type: 'floorRequest', cid })).toMatchObject({ code: refusal });
    for (const t of [talker, removed]) t.close();
  });

  it('an AuthCode issued on A opens a seat on B, once', async () => {
    const api = authed(s.a.app, await loginAdmin(s.a));
    await mirrorSessions();
    const res = await api.post('/api/Talk/AuthCode', {});
    expect(res.statusCode, res.body).toBe(200);
    const { authCode } = res.json<{ BaseData: { authCode: string } }>().BaseData;
    const onB = await TestTerminal.connect(s.b);
    expect(await onB.request({ type: 'login', authCode })).toMatchObject({ type: 'ack', seat: { priority: 7 } });
    const onA = await TestTerminal.connect(s.a);
    expect(await onA.request({ type: 'login', authCode })).toMatchObject({ code: TalkErrors.badAuthCode });
    // Asking again voids the unused previous code, on every instance.
    const first = (await api.post('/api/Talk/AuthCode', {})).json<{ BaseData: { authCode: string } }>().BaseData;
    const second = (await api.post('/api/Talk/AuthCode', {})).json<{ BaseData: { authCode: string } }>().BaseData;
    const late = await TestTerminal.connect(s.b);
    expect(await late.request({ type: 'login', authCode: first.authCode })).toMatchObject({
      code: TalkErrors.badAuthCode,
    });
    expect(await late.request({ type: 'login', authCode: 'x'.repeat(31) })).toMatchObject({
      code: TerminalErrors.invalid,
    });
    expect(await late.request({ type: 'login', authCode: second.authCode })).toMatchObject({ type: 'ack' });
    for (const t of [onA, onB, late]) t.close();
  });

  it('a seat on B closes at once (4002) when its session ends on A, and a second seat of the session on A replaces it', async () => {
    const token = await loginAdmin(s.a);
    const api = authed(s.a.app, token);
    await mirrorSessions();
    const code = async () =>
      (await api.post('/api/Talk/AuthCode', {})).json<{ BaseData: { authCode: string } }>().BaseData.authCode;
    const onB = await TestTerminal.connect(s.b);
    expect(await onB.request({ type: 'login', authCode: await code() })).toMatchObject({ type: 'ack' });
    const onA = await TestTerminal.connect(s.a);
    expect(await onA.request({ type: 'login', authCode: await code() })).toMatchObject({ type: 'ack' });
    expect(await onB.closed).toBe(TerminalCloseCodes.replaced);
    expect((await api.post('/api/Account/Logout')).statusCode).toBe(200);
    expect(await onA.closed).toBe(TerminalCloseCodes.accountChanged);
  });

  it('a private call from A to a user on B: both talk on its one floor, either hangs up', async () => {
    const caller = await s.user();
    const callee = await s.user();
    const onA = await loggedIn(s.a, caller.phone);
    const onB = await loggedIn(s.b, callee.phone);
    const placed = await onA.request({ type: 'call', uid: callee.U_ID });
    expect(placed).toMatchObject({ type: 'ack' });
    const cid = placed.cid as number;
    await onB.next(isType('callStart', { cid, from: caller.U_ID }));
    expect(await onA.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    expect(await onB.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    await talk(onA, cid, SPEECH.slice(0, 8), 2);
    await waitFor(() => onB.frames.length === 8);
    expect(readDown(onB.frames[7] as Buffer)).toMatchObject({ cid, speaker: caller.U_ID, seq: 7 });
    await onA.request({ type: 'floorRelease', cid });
    await onB.next(isType('floorIdle', { cid }));
    expect(await onB.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(onB, cid, SPEECH.slice(0, 4), 2);
    await waitFor(() => onA.frames.length === 4);
    expect((await onB.request({ type: 'hangup', cid })).type).toBe('ack');
    await onA.next(isType('callEnd', { cid }));
    expect(await onA.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notFound });
    for (const t of [onA, onB]) t.close();
  });

  it('a call to a user connected nowhere, or of another enterprise, is unavailable', async () => {
    const caller = await s.user();
    const offline = await s.user();
    const onA = await loggedIn(s.a, caller.phone);
    const started = Date.now();
    expect(await onA.request({ type: 'call', uid: offline.U_ID })).toMatchObject({ code: TalkErrors.unavailable });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const foreign = await createEnterprise(s.a.db);
    if (!s.shared) {
      const row = await s.a.db
        .selectFrom('enterprise')
        .selectAll()
        .where('E_ID', '=', foreign.E_ID)
        .executeTakeFirstOrThrow();
      await s.b.db.insertInto('enterprise').values(row).execute();
    }
    const stranger = await s.user({ E_ID: foreign.E_ID });
    const onB = await loggedIn(s.b, stranger.phone);
    expect(await onA.request({ type: 'call', uid: stranger.U_ID })).toMatchObject({ code: TalkErrors.unavailable });
    expect(onB.received.filter(isType('callStart'))).toHaveLength(0);
    expect(await onA.request({ type: 'call', uid: 0 })).toMatchObject({ code: TerminalErrors.invalid });
    for (const t of [onA, onB]) t.close();
  });

  // Last: instance A stops answering Redis as if it had crashed.
  it('a floor held on an instance that dies is idle elsewhere once its lease runs out', async () => {
    const { cid, members } = await channelAcross([{ on: 'a' }, { on: 'b' }]);
    const [onA, onB] = terminals(members);
    if (!onA || !onB) throw new Error('two members');
    await onA.request({ type: 'floorRequest', cid });
    await onB.next(isType('floorTaken', { cid }));
    // Keep talking for longer than the lease: the holder's instance renews it.
    await talk(onA, cid, SPEECH.slice(0, 20), LEASE_MS / 10);
    expect(onB.received.filter(isType('floorIdle'))).toHaveLength(0);
    const died = Date.now();
    s.a.app.talk.service.sharedFloors?.disconnect();
    await onB.next(isType('floorIdle', { cid }), 3 * LEASE_MS);
    expect(Date.now() - died).toBeLessThan(2 * LEASE_MS);
    expect(await onB.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    onB.close();
  });
});

/**
 * Without TEST_DATABASE_URL each instance has a database of its own: B gets A's console sessions, as
 * one shared database would show them (a seat is redeemed against its session).
 */
async function mirrorSessions(): Promise<void> {
  if (s.shared) return;
  const rows = await s.a.db.selectFrom('session').selectAll().execute();
  await s.b.db.deleteFrom('session').execute();
  if (rows.length > 0) await s.b.db.insertInto('session').values(rows).execute();
}
