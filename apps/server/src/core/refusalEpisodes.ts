import type { TerminalErrorCode } from '@intercom/contract';
import type { Clock, ClockTimer } from './clock.js';

/** What was refused: the episode's log line counts each kind. */
export type RefusalKind =
  /** A text message over the message rate. */
  | 'messages'
  /** A binary frame that is not one (bad header, too large, before login). */
  | 'badFrames'
  | 'audioOverRate'
  /** Audio for a floor the sender does not hold. */
  | 'audioNoFloor'
  | 'videoOverRate'
  /** Video from a terminal that has not announced it (no rights, or no `videoCaps`). */
  | 'videoNoRights'
  /** Video nobody asked for (no viewer, before `videoStart` or after `videoStop`). */
  | 'videoUnwatched';

/** A connection that counts its refused frames (TerminalConnection). */
export interface RefusingPeer {
  /**
   * Counts a refused frame in the current episode; `reply` is sent only if the episode has had no
   * error reply yet. Closes the socket as flooding when the episode reaches the threshold.
   */
  refused(kind: RefusalKind, now: number, reply?: readonly [TerminalErrorCode, string]): void;
  /** A malformed frame: counted the same way, and answered every time (the answer says what is wrong). */
  badFrame(now: number, code: TerminalErrorCode, message: string): void;
}

/** One episode as it ended, for its single log line. */
export interface RefusalEpisode {
  refused: number;
  kinds: Partial<Record<RefusalKind, number>>;
  /** From its first refusal to its last. */
  ms: number;
  /** It ended because the socket closed (as flooding, or by the terminal). */
  closed: boolean;
}

/**
 * Refusals of one connection grouped into episodes: an episode starts at a refusal and ends after
 * `quietMs` without one (or when the socket closes). A message or frame accepted in between does
 * not end it: a flood over a rate limit gets one frame through each time a token comes back, and
 * an episode ended by that would never reach the close threshold and would cost a log line every
 * few frames. So an episode costs one log line, written when it ends, whatever its length.
 */
export class RefusalEpisodes {
  private count = 0;
  private kinds: Partial<Record<RefusalKind, number>> = {};
  private firstAt = 0;
  private lastAt = 0;
  private replied = false;
  private timer: ClockTimer | null = null;

  /** `clock` is the connection's (AppDeps.clock): `refuse`'s `now` and the quiet check read the same time. */
  constructor(
    private readonly quietMs: number,
    private readonly ended: (episode: RefusalEpisode) => void,
    private readonly clock: Clock,
  ) {}

  /** Counts one refusal; returns how many the episode holds now. */
  refuse(kind: RefusalKind, now: number): number {
    if (this.count === 0) {
      this.firstAt = now;
      this.timer = this.clock.timeout(() => this.check(), this.quietMs);
    }
    this.count += 1;
    this.kinds[kind] = (this.kinds[kind] ?? 0) + 1;
    this.lastAt = now;
    return this.count;
  }

  /** True once per episode: whether this refusal may carry the episode's one error reply. */
  reply(): boolean {
    if (this.replied) return false;
    this.replied = true;
    return true;
  }

  /** Ends the episode now (the socket closed); nothing happens without one. */
  end(): void {
    if (this.count > 0) this.finish(true);
  }

  private check(): void {
    const quietFor = this.clock.now() - this.lastAt;
    if (quietFor >= this.quietMs) return this.finish(false);
    this.timer = this.clock.timeout(() => this.check(), this.quietMs - quietFor);
  }

  private finish(closed: boolean): void {
    this.timer?.cancel();
    const episode: RefusalEpisode = { refused: this.count, kinds: this.kinds, ms: this.lastAt - this.firstAt, closed };
    this.timer = null;
    this.count = 0;
    this.kinds = {};
    this.replied = false;
    this.ended(episode);
  }
}
