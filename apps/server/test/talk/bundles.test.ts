import net from 'node:net';
import { encodeAudioUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import { TestTerminal, createTerminalUser } from '../terminals/terminalTestApp.js';
import {
  FAST_TALK,
  SPEECH,
  channelOf,
  isType,
  joinAll,
  readDown,
  seatOf,
  talk,
  useTalkApp,
  waitFor,
} from './talkFixtures.js';

// Big rooms: two frames per write to the terminals, every frame at once to the seats (audioFanOut.ts).
// From 4 listeners here (the talker included); a lone frame waits up to 2 s for the next one, so what
// is held is plain to see, while a burst's frames come 10 ms apart, well within it.
const BUNDLE = { fromListeners: 4, holdMs: 2_000 };
const t = useTalkApp({
  ...FAST_TALK,
  floor: { ...FAST_TALK.floor, silenceMs: 10_000, maxTalkMs: 30_000 },
  bundle: BUNDLE,
});

/** A logged-in terminal that counts the reads its TCP socket makes (one per server write, or fewer). */
async function countingTerminal(phone: string) {
  const reads = { count: 0 };
  const terminal = await TestTerminal.connect(t, {
    createConnection: (options) => {
      const socket = net.connect(options as net.NetConnectOpts);
      socket.on('data', () => (reads.count += 1));
      return socket;
    },
  });
  const reply = await terminal.login(phone);
  if (reply.type !== 'ack') throw new Error(`login refused: ${JSON.stringify(reply)}`);
  return { terminal, reads };
}

const seqs = (terminal: TestTerminal) => terminal.frames.map((frame) => readDown(frame).seq);

describe('bundles in a big room', () => {
  it('writes two frames at a time to the terminals, every frame intact and in order; a seat hears each at once', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0, 0]);
    const counted = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    await t.db
      .insertInto('channel_member')
      .values({ CID: cid, UserID: counted.U_ID, E_ID: t.demo.E_ID, Priority: 0 })
      .execute();
    const { terminal: listener, reads } = await countingTerminal(counted.phone);
    const dispatcher = await seatOf(t);
    await joinAll(members, cid);
    for (const m of [listener, dispatcher])
      expect(await m.request({ type: 'join', cid })).toMatchObject({ type: 'ack' });
    const [talker, other] = members.map((m) => m.terminal);
    if (!talker || !other) throw new Error('members');
    expect(await talker.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });

    // One frame: the seat has it at once, the terminals get it with the next.
    await talk(talker, cid, SPEECH.slice(0, 1));
    await waitFor(() => dispatcher.frames.length === 1);
    expect(listener.frames).toHaveLength(0);
    expect(other.frames).toHaveLength(0);

    // A burst, 10 ms apart: every frame reaches everyone, in order and byte for byte.
    const before = reads.count;
    const packets = SPEECH.slice(0, 40);
    for (let seq = 1; seq < packets.length; seq += 1) {
      talker.socket.send(encodeAudioUp({ cid, seq, opus: packets[seq] as Buffer }), { binary: true });
      await sleep(10);
    }
    for (const m of [listener, other, dispatcher]) {
      await waitFor(() => m.frames.length === packets.length);
      expect(seqs(m)).toEqual(packets.map((_, i) => i));
      m.frames.forEach((frame, i) => expect(readDown(frame).opus.equals(packets[i] as Buffer)).toBe(true));
    }
    expect(talker.frames).toHaveLength(0);
    // 40 frames delivered two at a time: as many reads as pairs, or fewer when the kernel merged some.
    // (The reads cannot tell one write of two frames from two writes in one tick; bench/talk.ts's CPU can.)
    expect(reads.count - before).toBeLessThanOrEqual(20);
    for (const m of [talker, other, listener, dispatcher]) m.close();
  });

  it('a frame with no next one goes alone after the hold; a floor event writes the held frame first', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0, 0, 0]);
    await joinAll(members, cid);
    const [talker, ...listeners] = members.map((m) => m.terminal);
    if (!talker) throw new Error('a talker');
    await talker.request({ type: 'floorRequest', cid });
    await talk(talker, cid, SPEECH.slice(0, 3));
    for (const m of listeners) await waitFor(() => m.frames.length === 2);
    // The third waits for a fourth that does not come, then goes alone. (When: the hold's timing is
    // tested in fake time, audioFanOut.test.ts; here, what reaches the sockets.)
    for (const m of listeners) await waitFor(() => m.frames.length === 3, 15_000);

    // A fourth frame and the release at once: floorIdle comes after it, the held frame written first.
    talker.socket.send(encodeAudioUp({ cid, seq: 3, opus: SPEECH[3] as Buffer }), { binary: true });
    talker.send({ type: 'floorRelease', cid });
    for (const m of listeners) {
      await m.next(isType('floorIdle', { cid }), 1_500);
      expect(seqs(m)).toEqual([0, 1, 2, 3]);
      expect(m.arrivals.lastIndexOf('frame')).toBeLessThan(m.arrivals.indexOf('floorIdle'));
    }
    for (const m of [talker, ...listeners]) m.close();
  });

  it('a room with fewer listeners than the threshold gets each frame at once', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0, 0]);
    await joinAll(members, cid);
    const [talker, ...listeners] = members.map((m) => m.terminal);
    if (!talker) throw new Error('a talker');
    await talker.request({ type: 'floorRequest', cid });
    await talk(talker, cid, SPEECH.slice(0, 1));
    for (const m of listeners) await waitFor(() => m.frames.length === 1, BUNDLE.holdMs - 500);
    for (const m of [talker, ...listeners]) m.close();
  });
});
