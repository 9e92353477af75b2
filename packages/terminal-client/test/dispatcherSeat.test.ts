import { VideoCodec } from '@intercom/contract';
import { describe, expect, it, vi } from 'vitest';
import {
  DispatcherSeat,
  TerminalSocket,
  decodeAudioUp,
  encodeAudioDown,
  encodeVideoDown,
  type AudioDown,
  type SeatAudio,
  type SeatMic,
  type VideoDown,
} from '../src/index.js';
import { FakeSocket } from './fakeSocket.js';
import { PEER_SEAT } from './seatRules.peer.js';

/** An audio back-end that keeps what the seat hands it. */
class RecordingAudio implements SeatAudio {
  mic: SeatMic | undefined;
  readonly heard: AudioDown[] = [];
  readonly videos: [VideoDown, Uint8Array][] = [];
  openMic(): void {}
  startSending(_cid: number, mic: SeatMic): void {
    this.mic = mic;
  }
  stopSending(): Promise<void> | void {
    this.mic = undefined;
  }
  play(heard: AudioDown): void {
    this.heard.push({ ...heard, opus: new Uint8Array(heard.opus) });
  }
  video(frame: VideoDown, bytes: Uint8Array): void {
    this.videos.push([frame, bytes]);
  }
}

/** A seat logged in on a FakeSocket; `answer` acks the next message of a type once it is sent. */
async function loggedIn(heartbeatMs: number | false = false) {
  const fake = new FakeSocket();
  const socket = new TerminalSocket({ connect: () => fake, heartbeatMs });
  fake.open();
  const audio = new RecordingAudio();
  const seat = new DispatcherSeat(audio);
  const answer = async (type: string, fields: Record<string, unknown> = {}) => {
    const sent = await vi.waitFor(() => {
      const found = fake.messages().findLast((m) => m.type === type);
      if (!found) throw new Error(`no ${type} sent`);
      return found;
    });
    fake.receive({ type: 'ack', seq: sent.seq, ...fields });
  };
  const login = seat.login(socket, { authCode: 'k'.repeat(32), dispatchNo: PEER_SEAT.dispatchNo, server: 'test' });
  await answer('login', { seat: PEER_SEAT });
  await login;
  return { fake, audio, seat, answer };
}

describe('DispatcherSeat audio and video', () => {
  it('numbers audio up frames from 0 per talk and wraps the seq after 0xffff', async () => {
    const { fake, audio, seat, answer } = await loggedIn();
    const talk = seat.applyMic(42);
    await answer('floorRequest');
    await talk;
    const opus = new Uint8Array([0xf8, 0xff, 0xfe]);
    for (let i = 0; i <= 0x10000; i += 1) audio.mic!.packet(opus);
    const frames = fake.sent.filter((d) => typeof d !== 'string').map((d) => decodeAudioUp(d)!);
    expect(frames).toHaveLength(0x10001);
    expect(frames[0]).toEqual({ cid: 42, seq: 0, opus });
    expect(frames[0xffff]).toMatchObject({ cid: 42, seq: 0xffff });
    expect(frames[0x10000]).toMatchObject({ cid: 42, seq: 0 });
    // A packet the back-end hands over after the talk ended is not sent.
    const late = audio.mic!;
    const release = seat.freeMic();
    await answer('floorRelease');
    expect(await release).toBe(42);
    late.packet(opus);
    expect(fake.sent.filter((d) => typeof d !== 'string')).toHaveLength(0x10001);
  });

  it('sends what the microphone captured before the release, then releases the floor', async () => {
    const { fake, audio, seat, answer } = await loggedIn();
    const talk = seat.applyMic(42);
    await answer('floorRequest');
    await talk;
    const mic = audio.mic!;
    const opus = new Uint8Array([0xf8, 0xff, 0xfe]);
    mic.packet(opus);
    // A browser's encoder lags behind its capture: stopSending settles once the last frames are out.
    let drained!: () => void;
    audio.stopSending = () => new Promise<void>((resolve) => (drained = resolve));
    const release = seat.freeMic();
    await vi.waitFor(() => expect(drained).toBeTypeOf('function'));
    mic.packet(opus);
    mic.packet(opus);
    expect(fake.messages().some((m) => m.type === 'floorRelease')).toBe(false);
    drained();
    await answer('floorRelease');
    expect(await release).toBe(42);
    mic.packet(opus);
    const frames = fake.sent.filter((d) => typeof d !== 'string').map((d) => decodeAudioUp(d)!);
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2]);
    expect(seat.info().talking).toBeNull();
  });

  it('hands heard audio to play and video to video with the bytes as they came', async () => {
    const { fake, audio } = await loggedIn();
    const opus = new Uint8Array([0xf8, 1, 2, 3]);
    fake.onmessage?.({ data: encodeAudioDown({ cid: 42, speaker: 7, seq: 9, opus }) });
    const video = encodeVideoDown({
      uid: 7,
      codec: VideoCodec.jpeg,
      timestamp: 1234,
      payload: new Uint8Array([0xff, 0xd8]),
    });
    fake.onmessage?.({ data: video });
    // Neither layout: dropped.
    fake.onmessage?.({ data: new Uint8Array([9, 9, 9]) });
    expect(audio.heard).toEqual([{ cid: 42, speaker: 7, seq: 9, opus }]);
    expect(audio.videos).toHaveLength(1);
    expect(audio.videos[0]![0]).toMatchObject({ uid: 7, codec: VideoCodec.jpeg, timestamp: 1234 });
    expect(audio.videos[0]![1]).toBe(video);
  });

  it('hears nothing once logged out', async () => {
    const { fake, audio, seat } = await loggedIn();
    const out = seat.logout();
    fake.receive({ type: 'ack', seq: fake.messages().at(-1)!.seq });
    await out;
    fake.onmessage?.({ data: encodeAudioDown({ cid: 42, speaker: 7, seq: 1, opus: new Uint8Array([1]) }) });
    expect(audio.heard).toEqual([]);
  });
});

describe('DispatcherSeat login', () => {
  it('starts the heartbeats that keep the seat on the server', async () => {
    const { fake, seat } = await loggedIn(10);
    await vi.waitFor(() => expect(fake.messages().some((m) => m.type === 'heartbeat')).toBe(true));
    expect(seat.info()).toMatchObject({ loggedIn: true, seat: PEER_SEAT });
  });
});
