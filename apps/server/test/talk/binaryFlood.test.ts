import { Writable } from 'node:stream';
import { TalkLimits, TerminalCloseCodes, TerminalErrors, VideoCodec, VideoErrors } from '@intercom/contract';
import { encodeAudioUp, encodeVideoUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { FAST_HUB, sleep, tenant } from '../hub/hubTestApp.js';
import {
  FAST_TERMINALS,
  createTerminalUser,
  loggedIn,
  startTerminalApp,
  type TestTerminal,
} from '../terminals/terminalTestApp.js';
import { FAST_TALK, SPEECH, channelOf, isType, joinAll, joinedChannel, talk, waitFor } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';
import { JPEG, channelMember, setVideoEnable } from '../video/videoFixtures.js';

// Binary floods (issue 30, item 5): refused audio and video frames count like refused messages, the
// socket closes as flooding at the same threshold, and each episode costs one log line and at most
// one error reply. FLOOD_FIGURES=1 prints the figures of docs/benchmarks.md.
/**
 * Production waits 2 s (terminalOptions.ts). 300 ms split a well-behaved talker's refusals in two on
 * a CI at load 8, where the test process can stall that long between two 20 ms frames.
 */
const QUIET_MS = 1_000;
const FLOOD = 10_000;
const EPISODE = 'refusal episode';
const lines: Record<string, unknown>[] = [];
const t = useTestApp(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return startTerminalApp(
    // The default threshold (200), as in production; episodes end after QUIET_MS without a refusal.
    { ...FAST_TERMINALS, heartbeatTimeoutMs: 30_000, floodQuietMs: QUIET_MS },
    FAST_HUB,
    {},
    {
      talk: {
        ...FAST_TALK,
        // A floor that outlasts a slow machine's flood: CI's load once let 400 ms of silence pass
        // between the grant and the first frame, and the floor went for silence, not for flooding.
        floor: { ...FAST_TALK.floor, silenceMs: 5_000, maxTalkMs: 30_000 },
        floodCutAfter: TalkLimits.floodCutAfter,
      },
      logger: { level: 'info', stream },
    },
  );
});

/** Episode lines about one terminal user. */
const episodesOf = (U_ID: number) => lines.filter((l) => l.msg === EPISODE && l.U_ID === U_ID);

/** Error replies to binary frames (they carry no seq). */
const frameErrors = (terminal: TestTerminal) => terminal.received.filter((m) => m.type === 'error' && m.seq === null);

function figure(name: string, value: unknown): void {
  if (process.env.FLOOD_FIGURES === '1') process.stderr.write(`[flood] ${name}: ${JSON.stringify(value)}\n`);
}

/**
 * Sends `frames` at once, then waits until the server closed the socket or counted every frame
 * (`handled`), and until an episode would have ended. Reports the log lines written meanwhile, the
 * error replies and the close code as the figure `name`.
 */
async function flood(name: string, terminal: TestTerminal, frames: Uint8Array[], handled: () => number): Promise<void> {
  const before = lines.length;
  const start = handled();
  for (const frame of frames) terminal.socket.send(frame, { binary: true });
  await waitFor(() => terminal.closeCode !== undefined || handled() - start >= frames.length, 30_000);
  await sleep(QUIET_MS * 2);
  const logged: Record<string, number> = {};
  for (const line of lines.slice(before)) logged[String(line.msg)] = (logged[String(line.msg)] ?? 0) + 1;
  figure(name, { logLines: logged, errorReplies: frameErrors(terminal).length, closed: terminal.closeCode });
}

const audioHandled = () => {
  const c = t.app.talk.service.counters;
  return c.relayed + c.notHolder + c.badFrames + c.rateLimited;
};
const videoHandled = () => t.app.talk.video.counters.received;

describe('audio', () => {
  it('closes a terminal that floods audio without the floor: 1008, one log line, no reply per frame', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [flooder, listener] = terminals;
    const U_ID = members[0]?.U_ID as number;
    await flood(
      'audio without the floor',
      flooder,
      Array.from({ length: FLOOD }, (_, i) => encodeAudioUp({ cid, seq: i, opus: SPEECH[0] as Buffer })),
      audioHandled,
    );
    expect(flooder.closeCode).toBe(TerminalCloseCodes.policy);
    expect(flooder.received.some((m) => m.type === 'closing' && m.reason === 'flooding')).toBe(true);
    expect(frameErrors(flooder).length).toBeLessThanOrEqual(1);
    expect(episodesOf(U_ID)).toHaveLength(1);
    expect(episodesOf(U_ID)[0]).toMatchObject({ closed: true, refused: 200 });
    expect(listener.frames).toHaveLength(0);
    listener.close();
  });

  it('writes one log line per episode, with its count, and keeps the socket open below the threshold', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0]);
    await joinAll(members, cid);
    const terminal = members[0]?.terminal as TestTerminal;
    const U_ID = members[0]?.U_ID as number;
    await talk(terminal, cid, SPEECH.slice(0, 20));
    await sleep(QUIET_MS * 2);
    await talk(terminal, cid, SPEECH.slice(0, 30));
    await waitFor(() => episodesOf(U_ID).length === 2);
    expect(episodesOf(U_ID).map((l) => [l.refused, l.closed])).toEqual([
      [20, false],
      [30, false],
    ]);
    expect(frameErrors(terminal)).toHaveLength(0);
    expect(await terminal.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
    terminal.close();
  });

  it('does not close a well-behaved talker that loses the floor mid-burst and stops within a second', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 5]);
    const [talker, dispatcher] = terminals;
    const U_ID = members[0]?.U_ID as number;
    expect(await talker.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    const sending = talk(talker, cid, SPEECH.slice(0, 40), 20);
    await sleep(300);
    expect(await dispatcher.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talker.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    await sending;
    // A slow client: one more second of 20 ms frames after the revoke.
    await talk(talker, cid, SPEECH.slice(0, 50), 20);
    await waitFor(() => episodesOf(U_ID).length > 0);
    await sleep(QUIET_MS * 2);
    expect(talker.closeCode).toBeUndefined();
    // One episode (frames 20 ms apart never leave the quiet time), counting every late frame.
    expect(episodesOf(U_ID)).toHaveLength(1);
    expect(episodesOf(U_ID)[0]).toMatchObject({ closed: false, kinds: { audioNoFloor: expect.any(Number) } });
    expect(episodesOf(U_ID)[0]?.refused).toBeGreaterThanOrEqual(50);
    expect(frameErrors(talker)).toHaveLength(0);
    expect(await talker.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
    talker.close();
    dispatcher.close();
  });

  it('cuts a talker over the audio rate: floor revoked, 1008, one rate_limited reply, one log line', async () => {
    const { cid, members, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [flooder, listener] = terminals;
    const U_ID = members[0]?.U_ID as number;
    // Built before the floor is granted: building them may take longer than the silence time.
    const frames = Array.from({ length: FLOOD }, (_, i) => encodeAudioUp({ cid, seq: i, opus: SPEECH[0] as Buffer }));
    await flooder.request({ type: 'floorRequest', cid });
    await flood('audio over the rate', flooder, frames, audioHandled);
    await flooder.next(isType('floorRevoked', { cid, reason: 'flooding' }));
    expect(flooder.closeCode).toBe(TerminalCloseCodes.policy);
    expect(frameErrors(flooder)).toEqual([expect.objectContaining({ code: TerminalErrors.rateLimited })]);
    expect(episodesOf(U_ID)).toHaveLength(1);
    expect(episodesOf(U_ID)[0]).toMatchObject({ closed: true, refused: 200 });
    // The burst allowance was relayed, the rest cut.
    expect(listener.frames.length).toBeLessThanOrEqual(FAST_TALK.framesBurst + 10);
    listener.close();
  });
});

describe('video', () => {
  const jpegFrames = () =>
    Array.from({ length: FLOOD }, (_, i) => encodeVideoUp({ codec: VideoCodec.jpeg, timestamp: i, payload: JPEG }));

  it('closes a terminal that floods video without rights: 1008, one not_video_member reply, one log line', async () => {
    const user = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, user.phone);
    await flood('video without rights', terminal, jpegFrames(), videoHandled);
    expect(terminal.closeCode).toBe(TerminalCloseCodes.policy);
    expect(frameErrors(terminal)).toEqual([expect.objectContaining({ code: VideoErrors.notVideoMember })]);
    expect(episodesOf(user.U_ID)).toHaveLength(1);
    expect(episodesOf(user.U_ID)[0]).toMatchObject({ closed: true, refused: 200, kinds: { videoNoRights: 200 } });
  });

  it('closes a terminal with video rights that floods frames nobody asked for', async () => {
    const { E_ID } = await tenant(t);
    await setVideoEnable(t, E_ID, 'TRUE');
    const { terminal, ...user } = await channelMember(t, E_ID, true);
    expect(await terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({ type: 'ack' });
    await flood('video nobody watches', terminal, jpegFrames(), videoHandled);
    expect(terminal.closeCode).toBe(TerminalCloseCodes.policy);
    expect(frameErrors(terminal).length).toBeLessThanOrEqual(1);
    expect(episodesOf(user.U_ID)).toHaveLength(1);
    expect(episodesOf(user.U_ID)[0]).toMatchObject({ closed: true, refused: 200 });
  });
});
