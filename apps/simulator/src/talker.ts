import { TerminalErrors } from '@intercom/contract';
import { TerminalRequestError } from '@intercom/terminal-client';
import type { SpeechBurst, TalkLink } from './speechBurst.js';
import type { FleetStats } from './stats.js';

export type { TalkLink } from './speechBurst.js';

export interface TalkSetup {
  /** The terminal's own channel. */
  cid: number;
  /** Mean seconds between this terminal's bursts (exponentially distributed). */
  everySeconds: number;
  /** One burst of speech: 20 ms Opus packets. */
  packets: readonly Buffer[];
  stats: FleetStats;
  random: () => number;
}

/** A worker put into an incident channel reports in within this many seconds (a random moment of it). */
const REPORT_IN_MS = 5_000;

/**
 * Push-to-talk of one simulated terminal (docs/terminal-protocol.md): joins its channel after each
 * login and now and then asks for the floor; when granted it speaks one burst and releases. Busy
 * means someone else talks: it tries again later. Like a person with a radio it follows the
 * dispatcher: `regrouped` makes the incident's channel the one it talks in (and it reports in soon),
 * `channelLeft` of that channel sends it back to its own. While an emergency call has the
 * microphone (`hold`) it does not talk in channels.
 */
export class SimTalker {
  private timer: NodeJS.Timeout | undefined;
  /** Between online and offline; a floor reply that settles later belongs to a connection that is gone. */
  private connected = false;
  /** The channel it talks in now: its own, an incident's it was regrouped into, or 0 (none left). */
  private current: number;
  private held = false;

  constructor(
    private readonly setup: TalkSetup,
    private readonly link: TalkLink,
    private readonly mic: SpeechBurst,
  ) {
    this.current = setup.cid;
  }

  /** The channel it talks in now (0: none). */
  get channel(): number {
    return this.current;
  }

  /** After a login: join the channel it was in (an incident's may have closed meanwhile) and plan a burst. */
  online(): void {
    this.connected = true;
    const { cid } = this.setup;
    if (this.current === 0) this.current = cid;
    const wanted = this.current;
    this.link.request({ type: 'join', cid: wanted }).catch(() => {
      if (!this.connected || this.current !== wanted || wanted === cid) return;
      this.current = cid;
      this.link.send({ type: 'join', cid });
    });
    this.plan();
  }

  offline(): void {
    this.connected = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.mic.talkingIn === this.current) this.mic.stop();
  }

  /** An emergency call takes the microphone (true) or gives it back (false). */
  hold(on: boolean): void {
    if (this.held === on) return;
    this.held = on;
    if (on) {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.current !== 0 && this.mic.talkingIn === this.current && this.mic.stop()) {
        this.link.send({ type: 'floorRelease', cid: this.current });
      }
    } else if (this.connected) this.plan();
  }

  /** A push: floors, regrouping, channels left. */
  pushed(message: { type: string; cid?: number }): void {
    const { cid } = message;
    if (message.type === 'floorRevoked' && cid === this.current && this.mic.talkingIn === cid) {
      this.mic.stop();
      this.plan();
    } else if (message.type === 'regrouped' && cid !== undefined) {
      this.moveTo(cid);
    } else if (message.type === 'channelLeft' && cid === this.current) {
      // Out of the zone or the incident closed: back to its own channel (gone itself: no channel).
      const home = this.setup.cid;
      this.moveTo(cid === home ? 0 : home);
      if (this.current !== 0) this.link.send({ type: 'join', cid: home });
    }
  }

  /** The server made `cid` its current channel (or it had to leave the one it talked in). */
  private moveTo(cid: number): void {
    // Moved by the server, it holds no floor in the channel it was in: nothing to release there.
    if (this.mic.talkingIn === this.current) this.mic.stop();
    this.current = cid;
    if (!this.connected || this.held || cid === 0) return;
    if (cid !== this.setup.cid) this.plan(this.setup.random() * REPORT_IN_MS);
    else if (!this.timer) this.plan();
  }

  private plan(delayMs?: number): void {
    clearTimeout(this.timer);
    if (this.held || this.current === 0) return;
    const mean = this.setup.everySeconds * 1000;
    const delay = delayMs ?? -Math.log(1 - this.setup.random()) * mean;
    this.timer = setTimeout(() => this.askFloor(), delay);
    this.timer.unref();
  }

  /** Granted: speak; busy or refused: try again later. */
  private askFloor(): void {
    this.timer = undefined;
    const cid = this.current;
    this.link.request({ type: 'floorRequest', cid }).then(
      (ack) => {
        if (!this.connected) return;
        if (!ack.granted) return this.plan();
        if (cid !== this.current || this.held) {
          // Moved (or an emergency call began) while asking: this floor is not wanted any more. The
          // server may have taken it already with the move (the release is then `not_joined`).
          this.link.request({ type: 'floorRelease', cid }).catch(() => undefined);
          return this.plan();
        }
        this.mic.speak(cid, () => {
          this.link.send({ type: 'floorRelease', cid });
          this.plan();
        });
      },
      (error: unknown) => {
        if (!this.connected) return;
        if (error instanceof TerminalRequestError && error.code === TerminalErrors.busy) this.setup.stats.busy += 1;
        this.plan();
      },
    );
  }
}
