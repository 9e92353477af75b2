import type { TrackStop } from '@intercom/contract';

/** SPEC.md section 2: start, pause, continue, stop. "stopped" sits at the start of the track. */
export type PlaybackState = 'stopped' | 'playing' | 'paused';

/** The speed steps of issue 11: track time per wall-clock time. */
export const PLAYBACK_SPEEDS = [1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8, 16, 32, 64] as const;
export const DEFAULT_SPEED_INDEX = PLAYBACK_SPEEDS.indexOf(16);

/** "1/8x", "1x", "64x": fractions below one, multiples above (SPEC.md section 2). */
export function speedLabel(speed: number): string {
  return speed >= 1 ? `${speed}x` : `1/${Math.round(1 / speed)}x`;
}

export interface PlaybackSnapshot {
  state: PlaybackState;
  time: number;
  speedIndex: number;
  /** Jump over each stop's span when the clock enters it. */
  skipStops: boolean;
}

/**
 * The replay's clock, outside React: time follows the wall clock times the speed (not the count
 * of fixes), advanced once per animation frame. Components subscribe to what they draw, so a
 * frame re-renders the marker and the playhead, not the page. Skipping stops jumps over each
 * stop's span when the clock enters it.
 */
export class PlaybackClock {
  private snapshot: PlaybackSnapshot;
  private readonly listeners = new Set<() => void>();
  private frame = 0;
  private lastWall = 0;
  private stops: readonly TrackStop[] = [];

  constructor(
    private begin = 0,
    private end = 0,
    private readonly now: () => number = () => performance.now(),
    private readonly schedule: (step: () => void) => number = (step) => requestAnimationFrame(step),
    private readonly cancel: (id: number) => void = (id) => cancelAnimationFrame(id),
  ) {
    this.snapshot = { state: 'stopped', time: begin, speedIndex: DEFAULT_SPEED_INDEX, skipStops: false };
  }

  /** A new track: stopped at its start, the speed kept. */
  load(begin: number, end: number, stops: readonly TrackStop[]): void {
    this.halt();
    this.begin = begin;
    this.end = end;
    this.stops = stops;
    this.set({ state: 'stopped', time: begin });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): PlaybackSnapshot => this.snapshot;

  get speed(): number {
    return PLAYBACK_SPEEDS[this.snapshot.speedIndex] as number;
  }

  /** Start (from the beginning, or from the end back to the start) or continue. */
  play(): void {
    if (this.snapshot.state === 'playing' || this.end <= this.begin) return;
    const time = this.snapshot.time >= this.end ? this.begin : this.snapshot.time;
    this.set({ state: 'playing', time: this.skip(time) });
    this.lastWall = this.now();
    this.frame = this.schedule(this.tick);
  }

  pause(): void {
    if (this.snapshot.state !== 'playing') return;
    this.halt();
    this.set({ state: 'paused' });
  }

  toggle(): void {
    if (this.snapshot.state === 'playing') this.pause();
    else this.play();
  }

  /** Stop: back to the start of the track. */
  stop(): void {
    this.halt();
    this.set({ state: 'stopped', time: this.begin });
  }

  /** Seek (timeline, arrows): playing continues from there; stopped becomes paused there. */
  seek(time: number): void {
    const clamped = Math.min(this.end, Math.max(this.begin, time));
    this.set({ time: clamped, state: this.snapshot.state === 'stopped' ? 'paused' : this.snapshot.state });
  }

  /** One step faster (+1) or slower (-1) within the steps. */
  changeSpeed(step: 1 | -1): void {
    const speedIndex = Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, this.snapshot.speedIndex + step));
    this.set({ speedIndex });
  }

  setSkipStops(skipStops: boolean): void {
    this.set({ skipStops });
  }

  dispose(): void {
    this.halt();
    this.listeners.clear();
  }

  private tick = () => {
    const wall = this.now();
    const elapsed = wall - this.lastWall;
    this.lastWall = wall;
    const time = this.skip(this.snapshot.time + elapsed * this.speed);
    if (time >= this.end) {
      this.frame = 0;
      this.set({ state: 'paused', time: this.end });
      return;
    }
    this.set({ time });
    this.frame = this.schedule(this.tick);
  };

  /** With skip on, a time inside a stop moves to the stop's end. */
  private skip(time: number): number {
    if (!this.snapshot.skipStops) return time;
    for (const stop of this.stops) if (time >= stop.begin && time < stop.end) return stop.end;
    return time;
  }

  private halt() {
    if (this.frame) this.cancel(this.frame);
    this.frame = 0;
  }

  private set(change: Partial<PlaybackSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
