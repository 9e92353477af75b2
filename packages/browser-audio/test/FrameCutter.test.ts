import { describe, expect, it } from 'vitest';
import { FrameCutter } from '../src/FrameCutter';
import { FRAME_SAMPLES } from '../src/opusConfig';

function cutter() {
  const frames: { samples: Float32Array; rms: number }[] = [];
  return { frames, cut: new FrameCutter((samples, rms) => frames.push({ samples, rms })) };
}

describe('FrameCutter', () => {
  it('cuts 128-sample render quanta into 20 ms frames of 960 samples, in order', () => {
    const { frames, cut } = cutter();
    let n = 0;
    for (let q = 0; q < 16; q += 1) cut.push(Float32Array.from({ length: 128 }, () => (n += 1)));
    // 16 quanta = 2048 samples = two whole frames and 128 samples waiting.
    expect(frames).toHaveLength(2);
    expect(frames[0]!.samples[0]).toBe(1);
    expect(frames[1]!.samples[0]).toBe(FRAME_SAMPLES + 1);
    expect(frames[1]!.samples[FRAME_SAMPLES - 1]).toBe(2 * FRAME_SAMPLES);
  });

  it('hands each frame over as its own buffer (it is transferred away) with its RMS level', () => {
    const { frames, cut } = cutter();
    cut.push(new Float32Array(FRAME_SAMPLES * 2).fill(0.5));
    expect(frames[0]!.samples.buffer).not.toBe(frames[1]!.samples.buffer);
    expect(frames[0]!.rms).toBeCloseTo(0.5);
  });

  it('forgets a partly filled frame on reset (a new talk starts clean)', () => {
    const { frames, cut } = cutter();
    cut.push(new Float32Array(900).fill(1));
    cut.reset();
    cut.push(new Float32Array(FRAME_SAMPLES).fill(0));
    expect(frames).toHaveLength(1);
    expect(frames[0]!.rms).toBe(0);
  });
});
