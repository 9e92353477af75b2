import { TerminalErrors } from '@intercom/contract';
import { TerminalRequestError, encodeAudioUp, type TerminalAck, type TerminalRequest } from '@intercom/terminal-client';
import type { FleetStats } from './stats.js';

/** What a talker needs of its terminal's socket. */
export interface TalkLink {
  /** Sends a message and settles with its reply: the ack, or a TerminalRequestError (`busy`, or closed). */
  request(message: TerminalRequest): Promise<TerminalAck>;
  /** Sends a message whose reply the talker does not wait for. */
  send(message: TerminalRequest): void;
  sendBinary(frame: Buffer): void;
}

export interface TalkSetup {
  cid: number;
  /** Mean seconds between this terminal's bursts (exponentially distributed). */
  everySeconds: number;
  /** One burst of speech: 20 ms Opus packets. */
  packets: readonly Buffer[];
  stats: FleetStats;
  random: () => number;
}

const FRAME_MS = 20;

/**
 * Push-to-talk of one simulated terminal (docs/terminal-protocol.md): joins its channel after each
 * login and now and then asks for the floor; when granted it sends a burst of real Opus speech at
 * the real pace (one packet every 20 ms) and releases. Busy means someone else talks: it tries
 * again later.
 */
export class SimTalker {
  private timer: NodeJS.Timeout | undefined;
  private sending: NodeJS.Timeout | undefined;
  /** Between online and offline; a floor reply that settles later belongs to a connection that is gone. */
  private connected = false;
  private audioSeq = 0;

  constructor(
    private readonly setup: TalkSetup,
    private readonly link: TalkLink,
  ) {}

  /** After a login: join the channel and plan the first burst. */
  online(): void {
    this.connected = true;
    this.link.send({ type: 'join', cid: this.setup.cid });
    this.plan();
  }

  offline(): void {
    this.connected = false;
    clearTimeout(this.timer);
    clearInterval(this.sending);
    this.timer = undefined;
    this.sending = undefined;
  }

  /** A push: a revoked floor stops the burst. */
  pushed(message: { type: string; cid?: number }): void {
    if (message.type === 'floorRevoked' && message.cid === this.setup.cid) this.finish(false);
  }

  private plan(): void {
    clearTimeout(this.timer);
    const mean = this.setup.everySeconds * 1000;
    const delay = -Math.log(1 - this.setup.random()) * mean;
    this.timer = setTimeout(() => this.askFloor(), delay);
    this.timer.unref();
  }

  /** Granted: speak; busy or refused: try again later. */
  private askFloor(): void {
    this.link.request({ type: 'floorRequest', cid: this.setup.cid }).then(
      (ack) => {
        if (!this.connected) return;
        if (ack.granted) this.speak();
        else this.plan();
      },
      (error: unknown) => {
        if (!this.connected) return;
        if (error instanceof TerminalRequestError && error.code === TerminalErrors.busy) this.setup.stats.busy += 1;
        this.plan();
      },
    );
  }

  private speak(): void {
    const { packets, cid, stats } = this.setup;
    let next = 0;
    stats.bursts += 1;
    this.sending = setInterval(() => {
      const packet = packets[next];
      if (!packet) return this.finish(true);
      this.link.sendBinary(
        encodeAudioUp({ cid, seq: this.audioSeq, opus: packet }, (bytes) => Buffer.allocUnsafe(bytes)),
      );
      this.audioSeq = (this.audioSeq + 1) & 0xffff;
      stats.framesSent += 1;
      next += 1;
    }, FRAME_MS);
  }

  private finish(release: boolean): void {
    if (!this.sending) return;
    clearInterval(this.sending);
    this.sending = undefined;
    if (release) this.link.send({ type: 'floorRelease', cid: this.setup.cid });
    this.plan();
  }
}
