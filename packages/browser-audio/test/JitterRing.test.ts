import { describe, expect, it } from 'vitest';
import { JitterRing, MAX_BUFFER, PREBUFFER } from '../src/JitterRing';

const frame = (value: number, length = 960) => new Float32Array(length).fill(value);

function drain(ring: JitterRing, quantum = 128): number[] {
  const out: number[] = [];
  const output = new Float32Array(quantum);
  for (;;) {
    output.fill(0);
    const took = ring.mixInto(output);
    if (took === 0) return out;
    out.push(...output.subarray(0, took));
  }
}

describe('JitterRing', () => {
  it('stays silent until it holds the prebuffer (40 ms), then plays in order', () => {
    const ring = new JitterRing();
    ring.push(frame(0.1));
    expect(ring.mixInto(new Float32Array(128))).toBe(0);
    ring.push(frame(0.2));
    expect(ring.size).toBe(PREBUFFER);
    const played = drain(ring);
    expect(played).toHaveLength(PREBUFFER);
    expect(played[0]).toBeCloseTo(0.1);
    expect(played[PREBUFFER - 1]).toBeCloseTo(0.2);
  });

  it('drops the OLDEST samples past its bound, so a burst never adds latency beyond 300 ms', () => {
    const ring = new JitterRing();
    for (let i = 0; i < MAX_BUFFER / 960; i += 1) ring.push(frame(0.1));
    ring.push(frame(0.9));
    expect(ring.size).toBe(MAX_BUFFER);
    const played = drain(ring);
    expect(played).toHaveLength(MAX_BUFFER);
    expect(played[0]).toBeCloseTo(0.1);
    expect(played[MAX_BUFFER - 1]).toBeCloseTo(0.9);
  });

  it('run dry, waits for a new prebuffer before playing again', () => {
    const ring = new JitterRing();
    ring.push(frame(0.5, PREBUFFER));
    drain(ring);
    expect(ring.playing).toBe(false);
    ring.push(frame(0.5, 960));
    expect(ring.mixInto(new Float32Array(128))).toBe(0);
  });

  it('mixes into what the output already holds (several streams at once)', () => {
    const ring = new JitterRing();
    ring.push(frame(0.25, PREBUFFER));
    const output = new Float32Array(128).fill(0.5);
    ring.mixInto(output);
    expect(output[0]).toBeCloseTo(0.75);
  });
});
