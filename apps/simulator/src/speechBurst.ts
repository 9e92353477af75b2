import { encodeAudioUp, type TerminalAck, type TerminalRequest } from '@intercom/terminal-client';
import type { FleetStats } from './stats.js';

/** What a talker needs of its terminal's socket. */
export interface TalkLink {
  /** Sends a message and settles with its reply: the ack, or a TerminalRequestError (`busy`, or closed). */
  request(message: TerminalRequest): Promise<TerminalAck>;
  /** Sends a message whose reply the talker does not wait for. */
  send(message: TerminalRequest): void;
  sendBinary(frame: Buffer): void;
}

const FRAME_MS = 20;

/**
 * The terminal's microphone: one burst of real Opus speech at a time, at the real pace (one packet
 * every 20 ms), in a channel or a call. Shared by the channel talker and the emergency voice, so a
 * terminal never speaks in two places at once.
 */
export class SpeechBurst {
  private sending: NodeJS.Timeout | undefined;
  private cid = 0;
  private seq = 0;

  constructor(
    private readonly link: TalkLink,
    private readonly packets: readonly Buffer[],
    private readonly stats: FleetStats,
  ) {}

  /** The floor id of the burst being sent; 0 when the microphone is free. */
  get talkingIn(): number {
    return this.sending ? this.cid : 0;
  }

  /** Speaks the phrase in `cid` (whose floor the terminal holds); `done` runs after the last packet. */
  speak(cid: number, done: () => void): void {
    this.stop();
    this.cid = cid;
    let next = 0;
    this.stats.bursts += 1;
    this.sending = setInterval(() => {
      const packet = this.packets[next];
      if (!packet) {
        this.stop();
        return done();
      }
      this.link.sendBinary(encodeAudioUp({ cid, seq: this.seq, opus: packet }, (bytes) => Buffer.allocUnsafe(bytes)));
      this.seq = (this.seq + 1) & 0xffff;
      this.stats.framesSent += 1;
      next += 1;
    }, FRAME_MS);
  }

  /** Stops the burst at once (floor revoked, call ended, connection lost); true when one was going. */
  stop(): boolean {
    if (!this.sending) return false;
    clearInterval(this.sending);
    this.sending = undefined;
    return true;
  }
}
