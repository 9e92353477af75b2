import type { SpeechBurst, TalkLink } from './speechBurst.js';
import type { FleetStats } from './stats.js';

/** How the worker in trouble speaks in its emergency call. */
export interface EmergencyHabit {
  /** Milliseconds from `callStart` to its first words. */
  firstMs: number;
  /**
   * Silence between two of its bursts until a dispatcher speaks: one who picks up hears it within
   * this long. Short, as a person calling for help; the bursts (about 2 s) leave the rest free.
   */
  everyMs: number;
  /** Silence between its bursts once a dispatcher has spoken: it leaves room to talk, and answers each time. */
  talkingEveryMs: number;
  /** Milliseconds from a dispatcher's last words to its answer. */
  answerMs: number;
  /** It hangs up when no dispatcher has spoken in the call for this long: its SOS ends itself. */
  hangUpAfterMs: number;
}

export const DEFAULT_EMERGENCY: EmergencyHabit = {
  firstMs: 500,
  everyMs: 2_500,
  talkingEveryMs: 8_000,
  answerMs: 700,
  hangUpAfterMs: 60_000,
};

/**
 * The simulated worker in its emergency call (docs/safety.md "Emergency calls"): the server opens
 * the call on the terminal's SOS and sends `callStart` with `emergency`. A dispatcher's Answer is
 * not sent to the terminal (every offered seat hears it from the first frame), so the worker calls
 * for help every few seconds until a dispatcher speaks; then it answers after each of the
 * dispatcher's words and speaks less often between them, until `callEnd`. It never cuts a
 * dispatcher off (its floor priority would), and it hangs up itself once nobody has spoken to it
 * for a while. While the call lasts the channel talker is held.
 */
export class EmergencyVoice {
  private cid = 0;
  private uid = 0;
  /** A dispatcher holds the call's floor. */
  private dispatcherTalks = false;
  /** A dispatcher has spoken in this call. */
  private answered = false;
  private timer: NodeJS.Timeout | undefined;
  private hangUpTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly habit: EmergencyHabit,
    private readonly link: TalkLink,
    private readonly mic: SpeechBurst,
    private readonly stats: FleetStats,
    /** The channel talker gives the microphone up (true) or gets it back (false). */
    private readonly hold: (on: boolean) => void,
  ) {}

  /** The emergency call's floor id, 0 when there is none. */
  get call(): number {
    return this.cid;
  }

  /** After a login: the terminal's own user id (its own floor events are not a dispatcher's). */
  online(uid: number): void {
    this.uid = uid;
  }

  /** The connection is gone: the server ended the call with it. */
  offline(): void {
    this.end();
  }

  pushed(message: { type: string; cid?: number; emergency?: boolean; uid?: number }): void {
    const { type, cid } = message;
    if (type === 'callStart' && message.emergency === true && cid !== undefined) return this.begin(cid);
    if (cid === undefined || cid !== this.cid) return;
    if (type === 'callEnd') this.end();
    else if (type === 'floorTaken' && message.uid !== this.uid) {
      this.dispatcherTalks = true;
      this.answered = true;
      clearTimeout(this.timer);
      this.keepOpen();
    } else if (type === 'floorIdle' && this.dispatcherTalks) {
      this.dispatcherTalks = false;
      this.keepOpen();
      this.next(this.habit.answerMs);
    } else if (type === 'floorRevoked' && this.mic.stop()) this.next(this.gap());
  }

  private gap(): number {
    return this.answered ? this.habit.talkingEveryMs : this.habit.everyMs;
  }

  private begin(cid: number): void {
    this.end();
    this.cid = cid;
    this.stats.emergencyCalls += 1;
    this.hold(true);
    this.keepOpen();
    this.next(this.habit.firstMs);
  }

  /** The hang-up counts again from now (the call started, or a dispatcher spoke). */
  private keepOpen(): void {
    clearTimeout(this.hangUpTimer);
    const cid = this.cid;
    this.hangUpTimer = setTimeout(() => {
      this.link.send({ type: 'hangup', cid });
      this.end();
    }, this.habit.hangUpAfterMs);
    this.hangUpTimer.unref();
  }

  private next(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.speak(), delayMs);
    this.timer.unref();
  }

  private speak(): void {
    const cid = this.cid;
    if (cid === 0 || this.dispatcherTalks) return;
    this.link.request({ type: 'floorRequest', cid }).then(
      (ack) => {
        if (cid !== this.cid || this.dispatcherTalks || !ack.granted) {
          if (ack.granted) this.link.send({ type: 'floorRelease', cid });
          if (cid === this.cid && !this.dispatcherTalks) this.next(this.gap());
          return;
        }
        this.mic.speak(cid, () => {
          this.link.send({ type: 'floorRelease', cid });
          this.next(this.gap());
        });
      },
      () => {
        if (cid === this.cid && !this.dispatcherTalks) this.next(this.gap());
      },
    );
  }

  private end(): void {
    if (this.cid === 0) return;
    clearTimeout(this.timer);
    clearTimeout(this.hangUpTimer);
    if (this.mic.talkingIn === this.cid) this.mic.stop();
    this.cid = 0;
    this.dispatcherTalks = false;
    this.answered = false;
    this.hold(false);
  }
}
