import type { TerminalServerMessage } from '@intercom/contract';
import {
  decodeAudioUp,
  encodeAudioDown,
  TerminalRequestError,
  type TerminalAck,
  type TerminalRequest,
} from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { FieldTalk, type TalkAudio, type TalkSocket } from './FieldTalk';
import { talkView } from './talkView';

const CH = 42;
const CALL = 0x8000_0003;
const ME = 5;

/** The shell's TerminalSocket as far as the engine uses it; replies are set per message type. */
class FakeSocket {
  readonly sent: TerminalRequest[] = [];
  readonly frames: Uint8Array[] = [];
  readonly replies = new Map<string, () => Promise<TerminalAck>>();
  private readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();

  on = ((event: string, listener: (...args: unknown[]) => void) => {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }) as TalkSocket['on'];

  send(message: TerminalRequest): number {
    this.sent.push(message);
    return this.sent.length;
  }

  request(message: TerminalRequest): Promise<TerminalAck> {
    this.send(message);
    const reply = this.replies.get(String(message.type));
    return reply ? reply() : Promise.resolve({ type: 'ack', seq: this.sent.length });
  }

  sendFrame(bytes: Uint8Array): boolean {
    this.frames.push(bytes);
    return true;
  }

  emit(event: 'push' | 'frame' | 'close', ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  push(message: TerminalServerMessage): void {
    this.emit('push', message);
  }

  types(): string[] {
    return this.sent.map((message) => String(message.type));
  }
}

/** The browser audio without a browser: starting sends two packets; everything is recorded. */
class FakeAudio implements TalkAudio {
  readonly played: { cid: number; speaker: number }[] = [];
  sending = false;
  micFails = false;
  openMic(): Promise<void> {
    return this.micFails ? Promise.reject(new Error('NotAllowedError')) : Promise.resolve();
  }
  startSending(onPacket: (opus: Uint8Array) => void): void {
    this.sending = true;
    onPacket(new Uint8Array([0xf8, 1]));
    onPacket(new Uint8Array([0xf8, 2]));
  }
  stopSending(): Promise<void> {
    this.sending = false;
    return Promise.resolve();
  }
  play(cid: number, speaker: number): void {
    this.played.push({ cid, speaker });
  }
  resume(): void {}
  close(): void {}
  stats() {
    return { sent: 0, decoded: this.played.length };
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup() {
  const socket = new FakeSocket();
  const audio = new FakeAudio();
  const rings = { started: 0, stopped: 0 };
  const talk = new FieldTalk({
    socket,
    createAudio: () => Promise.resolve(audio),
    ring: () => {
      rings.started += 1;
      return () => void (rings.stopped += 1);
    },
    now: () => 1000,
  });
  talk.start();
  talk.setChannel(CH);
  await settle();
  return { socket, audio, rings, talk, view: () => talkView(talk.snapshot, ME) };
}

const down = (cid: number, speaker: number, seq: number) =>
  encodeAudioDown({ cid, speaker, seq, opus: new Uint8Array([0xf8, seq]) });

describe('FieldTalk', () => {
  it('held: asks for the floor, sends the microphone as audio frames; let go: drains, then releases', async () => {
    const { socket, audio, talk, view } = await setup();
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CH }));
    talk.press();
    await settle();
    expect(socket.sent[0]).toEqual({ type: 'floorRequest', cid: CH });
    expect(view()).toEqual({ kind: 'talking', since: 1000 });
    expect(socket.frames.map((frame) => decodeAudioUp(frame))).toMatchObject([
      { cid: CH, seq: 0 },
      { cid: CH, seq: 1 },
    ]);
    talk.release();
    await settle();
    expect(audio.sending).toBe(false);
    expect(socket.sent.at(-1)).toEqual({ type: 'floorRelease', cid: CH });
    expect(view()).toEqual({ kind: 'idle' });
  });

  it('busy: says who talks; their frames play, other channels are not heard', async () => {
    const { socket, audio, talk, view } = await setup();
    socket.replies.set('floorRequest', () =>
      Promise.reject(
        new TerminalRequestError('busy', 'the floor is taken', { type: 'error', seq: 1, code: 'busy', message: '' }),
      ),
    );
    socket.push({ type: 'floorTaken', cid: CH, uid: 7, name: 'Patrol 7', priority: 3 });
    expect(view()).toEqual({ kind: 'listening', talker: { uid: 7, name: 'Patrol 7' } });
    talk.press();
    await settle();
    expect(view()).toEqual({ kind: 'denied', reason: 'busy', talker: { uid: 7, name: 'Patrol 7' } });
    socket.emit('frame', down(CH, 7, 1));
    socket.emit('frame', down(96, 8, 1));
    socket.emit('frame', new Uint8Array([1, 2]));
    expect(audio.played).toEqual([{ cid: CH, speaker: 7 }]);
    expect(talk.counters()).toMatchObject({ received: 1, decoded: 1 });
    socket.push({ type: 'floorIdle', cid: CH });
    expect(view()).toEqual({ kind: 'idle' });
  });

  it("a dispatcher's call rings, is not heard until answered, and is hung up", async () => {
    const { socket, audio, rings, talk } = await setup();
    socket.push({ type: 'callStart', cid: CALL, from: 0, name: 'Dispatch D1' });
    await settle();
    expect(talk.snapshot.call).toMatchObject({ cid: CALL, phase: 'ringing', name: 'Dispatch D1' });
    expect(rings.started).toBe(1);
    socket.emit('frame', down(CALL, 0, 1));
    expect(audio.played).toEqual([]);
    talk.answer();
    expect(rings.stopped).toBe(1);
    socket.emit('frame', down(CALL, 0, 2));
    expect(audio.played).toEqual([{ cid: CALL, speaker: 0 }]);
    talk.hangup();
    expect(socket.sent.at(-1)).toEqual({ type: 'hangup', cid: CALL });
    expect(talk.snapshot.call).toBeNull();
  });

  it('the emergency call after SOS plays at once and the button talks in it', async () => {
    const { socket, audio, rings, talk } = await setup();
    socket.push({ type: 'callStart', cid: CALL, emergency: true });
    socket.emit('frame', down(CALL, 0, 1));
    expect(audio.played).toEqual([{ cid: CALL, speaker: 0 }]);
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CALL }));
    talk.press();
    await settle();
    expect(socket.sent[0]).toEqual({ type: 'floorRequest', cid: CALL });
    expect(decodeAudioUp(socket.frames[0]!)).toMatchObject({ cid: CALL });
    expect(rings.started).toBe(0);
    socket.push({ type: 'callEnd', cid: CALL });
    expect(audio.sending).toBe(false);
    expect(talk.snapshot.call).toBeNull();
  });

  it('pre-empted: the microphone stops, no release is sent (the floor is gone already)', async () => {
    const { socket, audio, talk, view } = await setup();
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CH }));
    talk.press();
    await settle();
    socket.push({ type: 'floorRevoked', cid: CH, reason: 'preempted' });
    await settle();
    expect(audio.sending).toBe(false);
    expect(socket.types()).toEqual(['floorRequest']);
    expect(view()).toEqual({ kind: 'revoked', reason: 'preempted' });
  });

  it('a refused microphone gives the granted floor back and says why', async () => {
    const { socket, audio, talk, view } = await setup();
    audio.micFails = true;
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CH }));
    talk.press();
    await settle();
    await settle();
    expect(socket.types()).toEqual(['floorRequest', 'floorRelease']);
    expect(view()).toEqual({ kind: 'denied', reason: 'no_mic', talker: null });
  });

  it('a dropped connection ends the talk and the call', async () => {
    const { socket, audio, talk } = await setup();
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CH }));
    talk.press();
    await settle();
    socket.push({ type: 'callStart', cid: CALL, emergency: true });
    socket.emit('close', 1006, '');
    await settle();
    expect(audio.sending).toBe(false);
    expect(talk.snapshot.call).toBeNull();
    expect(talk.snapshot.own.phase).toBe('noPermission');
  });

  it('stopped while talking gives the floor back; started again it listens once, in the same channel', async () => {
    const socket = new FakeSocket();
    const made: FakeAudio[] = [];
    const talk = new FieldTalk({ socket, createAudio: () => Promise.resolve(made[made.push(new FakeAudio()) - 1]!) });
    const stop = talk.start();
    talk.setChannel(CH);
    await settle();
    socket.replies.set('floorRequest', () => Promise.resolve({ type: 'ack', seq: 1, granted: true, cid: CH }));
    talk.press();
    await settle();
    stop();
    expect(socket.sent.at(-1)).toEqual({ type: 'floorRelease', cid: CH });
    socket.emit('frame', down(CH, 7, 1));
    talk.start();
    await settle();
    socket.emit('frame', down(CH, 7, 2));
    expect(made.map((audio) => audio.played.length)).toEqual([0, 1]);
  });
});
