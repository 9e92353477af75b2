import { describe, expect, it } from 'vitest';
import { avcCodecString, delayOf } from './streamDecoder';

describe('stream decoder helpers', () => {
  it('reads the avc1 codec string from the SPS of an Annex B access unit', () => {
    // 00 00 00 01 67 (SPS) profile 0x42, constraints 0xC0, level 0x1E; then PPS and IDR.
    const unit = Uint8Array.from([0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1e, 0xda, 0, 0, 1, 0x68, 0xce, 0, 0, 1, 0x65, 0x88]);
    expect(avcCodecString(unit)).toBe('avc1.42c01e');
    expect(avcCodecString(Uint8Array.from([0, 0, 1, 0x41, 1, 2, 3, 4]))).toBeUndefined();
  });

  it('measures the delay modulo 2^32, across the wrap', () => {
    expect(delayOf(1_000, 1_250)).toBe(250);
    const now = 2 ** 32 * 411 + 20; // just after a wrap of the 32-bit timestamp
    expect(delayOf(2 ** 32 - 30, now)).toBe(50);
  });
});
