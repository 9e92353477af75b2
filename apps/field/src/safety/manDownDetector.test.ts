import { describe, expect, it } from 'vitest';
import { detectFall, FALL, ManDownMonitor, type MotionSample } from './manDownDetector';

const G = 9.80665;
const STEP_MS = 20; // 50 Hz, as phones report DeviceMotion

/** A seeded generator (mulberry32): the same "recording" every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds a recording phase by phase: each phase gives the g magnitude and the gravity axis over time. */
class Recording {
  readonly samples: MotionSample[] = [];
  private t = 0;
  constructor(private readonly noise: () => number) {}

  /** `g(ms into the phase)` along `axis` ([x, y, z] unit vector), with sensor noise of `jitter` g. */
  phase(ms: number, g: (at: number) => number, axis: [number, number, number] = [0, 1, 0], jitter = 0.03): this {
    for (let at = 0; at < ms; at += STEP_MS) {
      const n = () => (this.noise() - 0.5) * 2 * jitter * G;
      const m = g(at) * G;
      this.samples.push({ t: this.t, x: axis[0] * m + n(), y: axis[1] * m + n(), z: axis[2] * m + n() });
      this.t += STEP_MS;
    }
    return this;
  }

  get now(): number {
    return this.t;
  }
}

const UPRIGHT: [number, number, number] = [0, 1, 0];
const FLAT: [number, number, number] = [0, 0, 1];
const walk = (at: number) => 1 + 0.35 * Math.sin((2 * Math.PI * at) / 550);
/** A running stride of 360 ms: 120 ms of flight (0.2 g), a 2.9 g landing, then the stance. */
const run = (at: number) => {
  const phase = at % 360;
  if (phase < 120) return 0.2;
  if (phase < 160) return 2.9;
  return 1 + 0.4 * Math.sin((Math.PI * (phase - 160)) / 200);
};
const still = () => 1;
const bounce = (at: number) => 1 + 0.7 * Math.sin(at / 30) * Math.exp(-at / 200);

function fall(seed: number): { samples: MotionSample[]; impactAt: number } {
  const rec = new Recording(random(seed)).phase(3000, walk).phase(360, () => 0.08, UPRIGHT, 0.02);
  const impactAt = rec.now;
  rec
    .phase(60, () => 4.5, FLAT)
    .phase(600, bounce, FLAT)
    .phase(5000, still, FLAT, 0.02);
  return { samples: rec.samples, impactAt };
}

describe('detectFall on recorded-style sequences', () => {
  it('detects a fall: walking, free fall, impact, lying still on the side', () => {
    for (const seed of [1, 2, 3]) {
      const { samples, impactAt } = fall(seed);
      expect(detectFall(samples), `seed ${seed}`).toBe(impactAt);
    }
  });

  it('does not call a fall before the stillness has lasted', () => {
    const { samples, impactAt } = fall(4);
    const early = samples.filter((s) => s.t < impactAt + FALL.settleMs + FALL.stillMs - 200);
    expect(detectFall(early)).toBeUndefined();
    expect(detectFall(samples)).toBe(impactAt);
  });

  it('ignores a dropped phone that is picked up', () => {
    const rec = new Recording(random(5))
      .phase(2000, still, UPRIGHT, 0.05)
      .phase(300, () => 0.05, UPRIGHT, 0.02)
      .phase(40, () => 5, FLAT)
      .phase(400, bounce, FLAT)
      .phase(1200, still, FLAT, 0.01)
      .phase(1000, (at) => 1 + 0.6 * Math.sin(at / 80), UPRIGHT)
      .phase(6000, walk);
    expect(detectFall(rec.samples)).toBeUndefined();
  });

  it('ignores walking and running, and a runner who stops and stands', () => {
    expect(detectFall(new Recording(random(6)).phase(20_000, walk).samples)).toBeUndefined();
    expect(detectFall(new Recording(random(7)).phase(20_000, run, UPRIGHT, 0.08).samples)).toBeUndefined();
    const stops = new Recording(random(8)).phase(10_000, run, UPRIGHT, 0.08).phase(6000, still, UPRIGHT, 0.02);
    expect(detectFall(stops.samples)).toBeUndefined();
  });

  it('needs all three: free fall, impact and stillness', () => {
    const noImpact = new Recording(random(9))
      .phase(2000, walk)
      .phase(300, () => 0.05)
      .phase(5000, still, FLAT, 0.02);
    expect(detectFall(noImpact.samples)).toBeUndefined();
    const noFreeFall = new Recording(random(10))
      .phase(2000, walk)
      .phase(60, () => 4, FLAT)
      .phase(5000, still, FLAT, 0.02);
    expect(detectFall(noFreeFall.samples)).toBeUndefined();
    const getsUp = new Recording(random(11))
      .phase(2000, walk)
      .phase(360, () => 0.08)
      .phase(60, () => 4.5, FLAT)
      .phase(1500, still, FLAT, 0.02)
      .phase(5000, walk);
    expect(detectFall(getsUp.samples)).toBeUndefined();
  });
});

describe('ManDownMonitor', () => {
  it('reports a fall once, fed sample by sample, and nothing while walking', () => {
    const monitor = new ManDownMonitor();
    const { samples, impactAt } = fall(12);
    const walking = new Recording(random(13)).phase(10_000, walk).samples.map((s) => ({ ...s, t: s.t + 20_000 }));
    const reports = [...samples, ...walking].map((s) => monitor.push(s)).filter((at) => at !== undefined);
    expect(reports).toEqual([impactAt]);
  });
});
