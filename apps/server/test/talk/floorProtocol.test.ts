import { TalkErrors, TerminalErrors } from '@intercom/contract';
import { encodeAudioUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { authed, createEnterprise, loginAdmin } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { createTerminalUser, loggedIn } from '../terminals/terminalTestApp.js';
import {
  FAST_TALK,
  SPEECH,
  channelOf,
  isType,
  joinAll,
  joinedChannel,
  readDown,
  talk,
  useTalkApp,
  waitFor,
} from './talkFixtures.js';

// Channels, floor control and the audio relay over real sockets (DESIGN.md section 7).
// Listeners stay silent for seconds here: a longer heartbeat timeout than the terminal suite's.
const t = useTalkApp();

describe('join and floor requests', () => {
  it('refuses join by a non-member and floorRequest before join, and tells joined members who talks', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0]);
    const outsider = await loggedIn(t, (await createTerminalUser(t, { E_ID: t.demo.E_ID })).phone);
    const [a, b] = members.map((m) => m.terminal);
    if (!a || !b) throw new Error('two members');
    expect(await outsider.request({ type: 'join', cid })).toMatchObject({ code: TalkErrors.notMember });
    expect(await outsider.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notMember });
    expect(await a.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notJoined });
    expect(await a.request({ type: 'join', cid: 999_999 })).toMatchObject({ code: TalkErrors.notMember });
    expect(await a.request({ type: 'join', cid: 0 })).toMatchObject({ code: TerminalErrors.invalid, field: 'cid' });
    await joinAll(members, cid);
    expect(await a.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack', granted: true });
    const uid = members[0]?.U_ID;
    await b.next(isType('floorTaken', { cid, uid }));
    expect(await b.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'error', code: TalkErrors.busy });
    expect((await a.request({ type: 'floorRelease', cid })).type).toBe('ack');
    await b.next(isType('floorIdle', { cid }));
    expect(await b.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    for (const m of [...members.map((x) => x.terminal), outsider]) m.close();
  });

  it('pre-empts only at strictly higher priority: the loser is revoked, everyone hears who took it', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [3, 3, 5]);
    const [low, equal, high] = terminals;
    expect(await low.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    expect(await equal.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    expect(await high.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await low.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    const highUid = members[2]?.U_ID;
    for (const m of [low, equal, high]) await m.next(isType('floorTaken', { cid, uid: highUid, priority: 5 }));
    // The loser's frames are dropped from now on.
    await talk(low, cid, SPEECH.slice(0, 5));
    await sleep(100);
    expect(equal.frames).toHaveLength(0);
    for (const m of [low, equal, high]) m.close();
  });

  it('revokes after the silence time and after the maximum talk time, and on disconnect goes idle', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [a, b] = terminals;
    await a.request({ type: 'floorRequest', cid });
    await a.next(isType('floorRevoked', { cid, reason: 'silence' }), 2_000);
    await b.next(isType('floorIdle', { cid }));

    await a.request({ type: 'floorRequest', cid });
    const started = Date.now();
    // Keep talking (a frame every 100 ms) past the maximum talk time of 1.5 s.
    const sending = talk(a, cid, SPEECH.slice(0, 25), 100);
    await a.next(isType('floorRevoked', { cid, reason: 'timeout' }), 4_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    await sending;

    b.received.length = 0;
    expect(await a.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await waitFor(() => t.live.user(t.demo.E_ID, members[0]?.U_ID ?? 0)?.talking === true);
    a.close();
    await b.next(isType('floorIdle', { cid }));
    await waitFor(() => t.live.user(t.demo.E_ID, members[0]?.U_ID ?? 0)?.talking === false);
    b.close();
  });

  it('leave releases the floor and stops the audio', async () => {
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [a, b] = terminals;
    await a.request({ type: 'floorRequest', cid });
    expect((await a.request({ type: 'leave', cid })).type).toBe('ack');
    await b.next(isType('floorIdle', { cid }));
    expect(await a.request({ type: 'leave', cid })).toMatchObject({ code: TalkErrors.notJoined });
    a.close();
    b.close();
  });
});

describe('relay', () => {
  it('handles join, floorRequest and audio sent without waiting, in that order', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0]);
    const [a, b] = members.map((m) => m.terminal);
    if (!a || !b) throw new Error('two members');
    await joinAll(members.slice(1), cid);
    // All three go out before the first reply comes back.
    const join = a.request({ type: 'join', cid });
    const request = a.request({ type: 'floorRequest', cid });
    const release = a.request({ type: 'floorRelease', cid });
    expect(await join).toMatchObject({ type: 'ack', cid });
    expect(await request).toMatchObject({ type: 'ack', granted: true });
    expect(await release).toMatchObject({ type: 'ack' });
    await b.next(isType('floorIdle', { cid }));
    for (const m of [a, b]) m.close();
  });

  it('tells a listener floorIdle only after the frames queued before it', async () => {
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [a, b] = terminals;
    await a.request({ type: 'floorRequest', cid });
    // 90 frames and the release in one go: most of the burst waits in the listener's queue.
    await talk(a, cid, SPEECH.slice(0, 90));
    a.send({ type: 'floorRelease', cid });
    await b.next(isType('floorIdle', { cid }));
    expect(b.frames).toHaveLength(90);
    expect(b.arrivals.lastIndexOf('frame')).toBeLessThan(b.arrivals.indexOf('floorIdle'));
    for (const m of [a, b]) m.close();
  });

  it('a member removed from the channel stops hearing it at once', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0, 0]);
    const [talker, removed, kept] = terminals;
    const api = authed(t.app, await loginAdmin(t));
    const res = await api.postJson('/api/THChannel/CMemberChange', { cid, action: 'remove', uids: [members[1]?.U_ID] });
    expect(res.statusCode, res.body).toBe(200);
    await removed.next(isType('channelLeft', { cid, reason: 'removed' }));
    await talker.request({ type: 'floorRequest', cid });
    await talk(talker, cid, SPEECH.slice(0, 5));
    await waitFor(() => kept.frames.length === 5);
    expect(removed.frames).toHaveLength(0);
    expect(await removed.request({ type: 'join', cid })).toMatchObject({ code: TalkErrors.notMember });
    // Deleting the channel sends everyone away.
    const deleted = await api.delete(`/api/THChannel/DeleteChannel?cid=${cid}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const m of [talker, kept]) await m.next(isType('channelLeft', { cid }));
    for (const m of [talker, removed, kept]) m.close();
  });

  it('delivers every frame in order to every listener, never back to the talker, and marks the talker', async () => {
    const { cid, members } = await joinedChannel(t, t.demo.E_ID, [0, 0, 0, 0]);
    const [talker, ...listeners] = members;
    if (!talker) throw new Error('a talker');
    await talker.terminal.request({ type: 'floorRequest', cid });
    await waitFor(() => t.live.user(t.demo.E_ID, talker.U_ID)?.talking === true);
    const packets = SPEECH.slice(0, 50);
    await talk(talker.terminal, cid, packets, 2);
    for (const listener of listeners) {
      await waitFor(() => listener.terminal.frames.length === packets.length);
      const frames = listener.terminal.frames.map(readDown);
      expect(frames.map((f) => f.seq)).toEqual(packets.map((_, i) => i));
      frames.forEach((f, i) => {
        expect(f).toMatchObject({ kind: 1, cid, speaker: talker.U_ID });
        expect(f.opus.equals(packets[i] as Buffer)).toBe(true);
      });
    }
    expect(talker.terminal.frames).toHaveLength(0);
    // The relay writes prebuilt frames past ws's sender: right only while /terminal compresses nothing
    // (ws clients offer permessage-deflate; the server must decline it).
    for (const m of members) expect(m.terminal.socket.extensions).toBe('');
    for (const m of members) m.terminal.close();
  });

  it('drops frames from a non-holder and for another channel', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0, 0]);
    const [holder, other, listener] = terminals;
    await holder.request({ type: 'floorRequest', cid });
    await talk(other, cid, SPEECH.slice(0, 10));
    await talk(holder, cid + 1, SPEECH.slice(0, 10));
    await talk(holder, cid, SPEECH.slice(0, 3));
    await waitFor(() => listener.frames.length >= 3);
    await sleep(100);
    expect(listener.frames.map((f) => readDown(f).speaker)).toEqual([
      members[0]?.U_ID,
      members[0]?.U_ID,
      members[0]?.U_ID,
    ]);
    for (const m of [holder, other, listener]) m.close();
  });

  it('answers malformed frames with an error and keeps relaying for everyone', async () => {
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [holder, listener] = terminals;
    await holder.request({ type: 'floorRequest', cid });
    const packet = SPEECH[0] as Buffer;
    const wrongKind = encodeAudioUp({ cid, seq: 0, opus: packet });
    wrongKind[0] = 3; // kind 2 is video (issue 14); 3 is no kind at all
    holder.socket.send(wrongKind, { binary: true });
    await holder.next(isType('error', { code: TalkErrors.badFrame }));
    holder.received.length = 0;
    holder.socket.send(Buffer.from([1, 0, 0]), { binary: true });
    await holder.next(isType('error', { code: TalkErrors.badFrame }));
    holder.socket.send(encodeAudioUp({ cid, seq: 1, opus: Buffer.alloc(1300, 7) }), { binary: true });
    await holder.next(isType('error', { code: TerminalErrors.tooLarge }));
    await talk(holder, cid, [packet]);
    await waitFor(() => listener.frames.length === 1);
    expect((await holder.request({ type: 'heartbeat' })).type).toBe('ack');
    holder.close();
    listener.close();
  });

  it('cuts off a talker that floods: frames over the rate are dropped and the floor is revoked', async () => {
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [flooder, listener] = terminals;
    await flooder.request({ type: 'floorRequest', cid });
    const packet = SPEECH[0] as Buffer;
    await talk(
      flooder,
      cid,
      Array.from({ length: 400 }, () => packet),
    );
    await flooder.next(isType('error', { code: TerminalErrors.rateLimited }));
    await flooder.next(isType('floorRevoked', { cid, reason: 'flooding' }));
    await listener.next(isType('floorIdle', { cid }));
    // The burst allowance passed, the rest was dropped. Frames still in the listener's queue may
    // arrive after floorIdle (events do not wait behind audio), so wait for them.
    await waitFor(() => listener.frames.length >= FAST_TALK.framesBurst - 1);
    await sleep(100);
    expect(listener.frames.length).toBeLessThanOrEqual(FAST_TALK.framesBurst + 10);
    flooder.close();
    listener.close();
  });

  it('a terminal never hears or joins another enterprise', async () => {
    const other = await createEnterprise(t.db);
    const { cid: theirs, terminals: them } = await joinedChannel(t, other.E_ID, [0, 0]);
    const [ourTerminal] = (await joinedChannel(t, t.demo.E_ID, [0])).terminals;
    expect(await ourTerminal.request({ type: 'join', cid: theirs })).toMatchObject({ code: TalkErrors.notMember });
    expect(await ourTerminal.request({ type: 'floorRequest', cid: theirs })).toMatchObject({
      code: TalkErrors.notMember,
    });
    const [talker, listener] = them;
    await talker.request({ type: 'floorRequest', cid: theirs });
    await talk(talker, theirs, SPEECH.slice(0, 5));
    await waitFor(() => listener.frames.length === 5);
    expect(ourTerminal.frames).toHaveLength(0);
    expect(ourTerminal.received.some((m) => m.type === 'floorTaken')).toBe(false);
    for (const terminal of [...them, ourTerminal]) terminal.close();
  });
});
