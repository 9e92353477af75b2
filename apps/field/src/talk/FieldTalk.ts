import type { BrowserAudio } from '@intercom/browser-audio';
import type { TerminalServerMessage } from '@intercom/contract';
import { decodeAudioDown, encodeAudioUp, TerminalRequestError, type TerminalSocket } from '@intercom/terminal-client';
import { hears, initialTalkState, talkStep } from './talkMachine';
import type { TalkEffect, TalkEvent, TalkState } from './talkTypes';

/** What the engine uses of `@intercom/browser-audio` (unit tests pass a fake). */
export type TalkAudio = Pick<BrowserAudio, 'openMic' | 'startSending' | 'play' | 'close' | 'stats' | 'resume'> & {
  stopSending(): Promise<void> | void;
};

/** The part of TerminalSocket the engine uses. */
export type TalkSocket = Pick<TerminalSocket, 'on' | 'send' | 'request' | 'sendFrame'>;

export interface FieldTalkOptions {
  socket: TalkSocket;
  /** The microphone, Opus and playback; default: `@intercom/browser-audio` (WebCodecs + AudioWorklet). */
  createAudio?: () => Promise<TalkAudio>;
  /** Starts the ring of a call; returns its stop. Default: ringTone.ts (sound and vibration). */
  ring?: () => () => void;
  /** The clock of the talk timer. */
  now?: () => number;
}

export interface TalkCounters {
  /** Packets the microphone sent. */
  sent: number;
  /** Frames heard (channel and open call) and handed to the decoder. */
  received: number;
  /** Packets decoded into the jitter buffer. */
  decoded: number;
}

async function defaultAudio(): Promise<TalkAudio> {
  return (await import('@intercom/browser-audio')).BrowserAudio.create();
}

async function defaultRing(): Promise<() => () => void> {
  return (await import('./ringTone')).startRingTone;
}

/**
 * The field worker's push-to-talk over the shell's TerminalSocket: runs talkMachine.ts's rules on
 * the socket's pushes and the button, sends the microphone's Opus packets as audio frames while it
 * holds a floor, and plays what it hears (current channel, open call) through the jitter buffer as
 * soon as it arrives. The screen subscribes to its state (useFieldTalk).
 */
export class FieldTalk {
  private state: TalkState = initialTalkState;
  private readonly listeners = new Set<() => void>();
  private offs: (() => void)[] = [];
  private audio: TalkAudio | null = null;
  private audioReady: Promise<TalkAudio | null> = Promise.resolve(null);
  private micOpen: Promise<boolean> | null = null;
  private stopRing: (() => void) | null = null;
  private seq = 0;
  private received = 0;
  private running = false;
  private readonly now: () => number;

  constructor(private readonly options: FieldTalkOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Listens to the socket and makes the audio; returns the stop (which may be followed by a new start). */
  start(): () => void {
    if (this.running) return () => this.stop();
    this.running = true;
    const { socket } = this.options;
    this.offs = [
      socket.on('push', (message) => this.pushed(message)),
      socket.on('frame', (bytes) => this.heard(bytes)),
      socket.on('close', () => this.dispatch({ type: 'disconnected' })),
    ];
    // Made at once, so the first words heard are played; frames before it is ready are dropped.
    const made = (this.options.createAudio ?? defaultAudio)().then(
      (audio) => {
        if (this.audioReady !== made) {
          audio.close();
          return null;
        }
        this.audio = audio;
        return audio;
      },
      () => null,
    );
    this.audioReady = made;
    return () => this.stop();
  }

  get snapshot(): TalkState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  counters(): TalkCounters {
    const stats = this.audio?.stats() ?? { sent: 0, decoded: 0 };
    return { ...stats, received: this.received };
  }

  /** The shell's current channel. */
  setChannel(cid: number | null): void {
    this.dispatch({ type: 'channel', cid });
  }

  /** The button is held (touch, mouse, Space). */
  press(): void {
    this.audio?.resume();
    this.dispatch({ type: 'press', at: this.now() });
  }

  release(): void {
    this.dispatch({ type: 'release' });
  }

  answer(): void {
    this.audio?.resume();
    this.dispatch({ type: 'answer' });
  }

  hangup(): void {
    this.dispatch({ type: 'hangup' });
  }

  private stop(): void {
    if (!this.running) return;
    // Left while talking (signed out, the screen closed): the floor goes back at once.
    const { own } = this.state;
    if (own.phase === 'hasPermission') this.options.socket.send({ type: 'floorRelease', cid: own.cid });
    this.dispatch({ type: 'disconnected' });
    this.running = false;
    for (const off of this.offs) off();
    this.offs = [];
    this.endRing();
    this.audioReady = Promise.resolve(null);
    this.micOpen = null;
    this.audio?.close();
    this.audio = null;
  }

  private dispatch(event: TalkEvent): void {
    // Stopped, it only follows the channel (a start may come again, as React's strict mode does).
    if (!this.running && event.type !== 'channel') return;
    const { state, effects } = talkStep(this.state, event);
    const changed = state !== this.state;
    this.state = state;
    for (const effect of effects) this.run(effect);
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  private run(effect: TalkEffect): void {
    switch (effect.type) {
      case 'requestFloor':
        return void this.requestFloor(effect.cid);
      case 'startSending':
        return void this.startSending(effect.cid);
      case 'stopSending':
        return void this.stopSending(effect.cid, effect.release);
      case 'hangup':
        return void this.options.socket.request({ type: 'hangup', cid: effect.cid }).catch(() => undefined);
      case 'ring':
        return effect.on ? void this.startRing() : this.endRing();
    }
  }

  private async requestFloor(cid: number): Promise<void> {
    // The microphone opens while the request travels (the first press asks the browser's permission).
    void this.openMic();
    try {
      const ack = await this.options.socket.request({ type: 'floorRequest', cid });
      if (ack.granted === true) this.dispatch({ type: 'granted', cid, at: this.now() });
      else this.dispatch({ type: 'refused', cid, reason: 'failed' });
    } catch (error) {
      const reason = error instanceof TerminalRequestError ? error.code : 'failed';
      this.dispatch({ type: 'refused', cid, reason });
    }
  }

  private openMic(): Promise<boolean> {
    this.micOpen ??= this.audioReady.then(async (audio) => {
      if (!audio) return false;
      await audio.openMic();
      return true;
    });
    const opening = this.micOpen.catch(() => false);
    // A refused permission may be granted later: the next press asks again.
    void opening.then((open) => {
      if (!open) this.micOpen = null;
    });
    return opening;
  }

  private async startSending(cid: number): Promise<void> {
    const open = await this.openMic();
    const { own } = this.state;
    if (own.phase !== 'hasPermission' || own.cid !== cid) return;
    if (!open || !this.audio) return this.dispatch({ type: 'micFailed' });
    this.audio.startSending(
      (opus) => void this.options.socket.sendFrame(encodeAudioUp({ cid, seq: this.seq++ & 0xffff, opus })),
      () => undefined,
    );
  }

  private async stopSending(cid: number, release: boolean): Promise<void> {
    // The frames captured before the release go out first: a released talk keeps its last word.
    await this.audio?.stopSending();
    if (!release) return;
    this.options.socket.send({ type: 'floorRelease', cid });
    this.dispatch({ type: 'released' });
  }

  private async startRing(): Promise<void> {
    this.endRing();
    const start = this.options.ring ?? (await defaultRing());
    if (this.state.call?.phase === 'ringing' && !this.stopRing && this.running) this.stopRing = start();
  }

  private endRing(): void {
    this.stopRing?.();
    this.stopRing = null;
  }

  private heard(bytes: Uint8Array): void {
    const frame = decodeAudioDown(bytes);
    if (!frame || !hears(this.state, frame.cid)) return;
    this.received += 1;
    this.audio?.play(frame.cid, frame.speaker, frame.opus);
  }

  private pushed(message: TerminalServerMessage): void {
    const event = talkEventOf(message);
    if (event) this.dispatch(event);
  }
}

/** The pushes the talk rules take, as their events. */
export function talkEventOf(message: TerminalServerMessage): TalkEvent | null {
  if (message.type === 'floorTaken') {
    return { type: 'floorTaken', cid: message.cid, uid: message.uid, name: message.name };
  }
  if (message.type === 'floorIdle' || message.type === 'callEnd') return { type: message.type, cid: message.cid };
  if (message.type === 'floorRevoked') return { type: 'floorRevoked', cid: message.cid, reason: message.reason };
  if (message.type !== 'callStart') return null;
  const emergency = 'emergency' in message && message.emergency === true;
  return { type: 'callStart', cid: message.cid, from: message.from ?? null, name: message.name ?? null, emergency };
}
