/** One DeviceMotion reading: `accelerationIncludingGravity` in m/s², at `t` ms. */
export interface MotionSample {
  t: number;
  x: number;
  y: number;
  z: number;
}

/**
 * The thresholds of a fall (in g, ms): a free fall (the phone weighs almost nothing) long enough to
 * be more than a step's bounce, a hard impact soon after it, then a phone lying still (the worker
 * does not get up) for seconds once the bounces have settled.
 */
export const FALL = {
  freeFallG: 0.5,
  freeFallMinMs: 80,
  impactG: 2.5,
  impactWithinMs: 1000,
  settleMs: 1000,
  stillMs: 2500,
  stillToleranceG: 0.2,
  /** The phone lies otherwise than it was carried just before (the worker is down, not standing). */
  turnedDegrees: 35,
  beforeMs: 1000,
} as const;

const G = 9.80665;

function gOf(sample: MotionSample): number {
  return Math.hypot(sample.x, sample.y, sample.z) / G;
}

/** Runs of free fall at least FALL.freeFallMinMs long: their first and last sample indices. */
function freeFalls(samples: readonly MotionSample[], gs: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= samples.length; i += 1) {
    const falling = i < samples.length && gs[i]! < FALL.freeFallG;
    if (falling && start < 0) start = i;
    if (!falling && start >= 0) {
      if (samples[i - 1]!.t - samples[start]!.t >= FALL.freeFallMinMs) runs.push([start, i - 1]);
      start = -1;
    }
  }
  return runs;
}

/** The first impact within FALL.impactWithinMs after a free fall's end: its index. */
function impactAfter(samples: readonly MotionSample[], gs: readonly number[], fallEnd: number): number | undefined {
  const until = samples[fallEnd]!.t + FALL.impactWithinMs;
  for (let i = fallEnd + 1; i < samples.length && samples[i]!.t <= until; i += 1) {
    if (gs[i]! >= FALL.impactG) return i;
  }
  return undefined;
}

type Vector = [number, number, number];

/** The mean acceleration vector of the samples with from <= t < to; undefined when none. */
function meanVector(samples: readonly MotionSample[], from: number, to: number): Vector | undefined {
  const sum: Vector = [0, 0, 0];
  let n = 0;
  for (const sample of samples) {
    if (sample.t < from || sample.t >= to) continue;
    sum[0] += sample.x;
    sum[1] += sample.y;
    sum[2] += sample.z;
    n += 1;
  }
  return n === 0 ? undefined : [sum[0] / n, sum[1] / n, sum[2] / n];
}

function angleDegrees(a: Vector, b: Vector): number {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cos = dot / (Math.hypot(...a) * Math.hypot(...b) || 1);
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}

/**
 * Whether gravity points elsewhere after the fall than before it: a worker lying down, not one who
 * stopped running and stands. Without samples before the fall (the window just started) it counts.
 */
function turned(samples: readonly MotionSample[], fallStart: number, impact: number): boolean {
  const start = samples[fallStart]!.t;
  const before = meanVector(samples, start - FALL.beforeMs, start);
  const from = samples[impact]!.t + FALL.settleMs;
  const after = meanVector(samples, from, from + FALL.stillMs);
  return !before || !after || angleDegrees(before, after) >= FALL.turnedDegrees;
}

/** Whether the phone lay still (1 g, within tolerance) over the whole window after the impact. */
function stillAfter(samples: readonly MotionSample[], gs: readonly number[], impact: number): boolean {
  const from = samples[impact]!.t + FALL.settleMs;
  const to = from + FALL.stillMs;
  if (samples[samples.length - 1]!.t < to) return false;
  let seen = 0;
  for (let i = impact; i < samples.length; i += 1) {
    const t = samples[i]!.t;
    if (t < from) continue;
    if (t > to) break;
    if (Math.abs(gs[i]! - 1) > FALL.stillToleranceG) return false;
    seen += 1;
  }
  return seen > 0;
}

/**
 * A pure man-down detector: the time of the impact of a fall (free fall, impact, then stillness in
 * another orientation than before) in `samples` (ordered by time), or undefined. A dropped phone
 * that is picked up, walking or running (bounces and landings, never still after them), and a runner
 * who stops and stands (still, but upright as before) are no fall.
 */
export function detectFall(samples: readonly MotionSample[]): number | undefined {
  const gs = samples.map(gOf);
  for (const [start, end] of freeFalls(samples, gs)) {
    const impact = impactAfter(samples, gs, end);
    if (impact === undefined || !stillAfter(samples, gs, impact)) continue;
    if (turned(samples, start, impact)) return samples[impact]!.t;
  }
  return undefined;
}

/** Samples kept for the detector: a fall's whole shape fits in this much time. */
const WINDOW_MS = FALL.impactWithinMs + FALL.settleMs + FALL.stillMs + 1500;
/** The detector runs at most this often, however fast the sensor reports. */
const CHECK_EVERY_MS = 250;

/** Feeds DeviceMotion samples to detectFall over a sliding window; reports each fall once. */
export class ManDownMonitor {
  private samples: MotionSample[] = [];
  private lastCheck = -Infinity;

  /** Adds a sample; returns the impact time when a fall is complete (the window then starts afresh). */
  push(sample: MotionSample): number | undefined {
    this.samples.push(sample);
    const cut = sample.t - WINDOW_MS;
    while (this.samples.length > 0 && this.samples[0]!.t < cut) this.samples.shift();
    if (sample.t - this.lastCheck < CHECK_EVERY_MS) return undefined;
    this.lastCheck = sample.t;
    const at = detectFall(this.samples);
    if (at !== undefined) this.samples = [];
    return at;
  }
}
