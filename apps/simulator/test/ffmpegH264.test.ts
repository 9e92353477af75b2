import { spawnSync } from 'node:child_process';
import { VideoCodec, isVideoKeyFrame } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FfmpegH264Encoder, ffmpegH264Available, type EncodedPicture } from '../src/ffmpegH264.js';
import { FlvAvcReader } from '../src/flvAvcReader.js';
import { TestPattern } from '../src/testPattern.js';

/** NAL unit types of an Annex B unit, in order. */
function nalTypes(unit: Uint8Array): number[] {
  const types: number[] = [];
  for (let i = 0; i + 3 < unit.length; i += 1) {
    if (unit[i] === 0 && unit[i + 1] === 0 && unit[i + 2] === 1) types.push((unit[i + 3] as number) & 0x1f);
  }
  return types;
}

const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const u32 = (n: number) => [(n >>> 24) & 0xff, ...u24(n)];

/** One FLV tag with its trailing PreviousTagSize. */
function tag(type: number, timestamp: number, data: number[]): number[] {
  const header = [type, ...u24(data.length), ...u24(timestamp & 0xffffff), timestamp >>> 24, 0, 0, 0];
  return [...header, ...data, ...u32(header.length + data.length)];
}

describe('FlvAvcReader', () => {
  // What ffmpeg's FLV muxer writes: header, a script tag, the AVC sequence header, then pictures.
  const sps = [0x67, 0x42, 0xc0, 0x0b, 0xda];
  const pps = [0x68, 0xce, 0x3c, 0x80];
  const record = [1, 0x42, 0xc0, 0x0b, 0xff, 0xe1, 0, sps.length, ...sps, 1, 0, pps.length, ...pps];
  const idr = [0x65, 0x88, 0x84, 0x00];
  const slice = [0x41, 0x9a, 0x02];
  const stream = Uint8Array.from([
    ...[0x46, 0x4c, 0x56, 1, 1, ...u32(9), ...u32(0)],
    ...tag(18, 0, [2, 0, 10, 0x6f, 0x6e, 0x4d, 0x65, 0x74, 0x61, 0x44, 0x61, 0x74, 0x61]),
    ...tag(9, 0, [0x17, 0, 0, 0, 0, ...record]),
    ...tag(9, 0, [0x17, 1, 0, 0, 0, ...u32(idr.length), ...idr]),
    ...tag(9, 100, [0x27, 1, 0, 0, 0, ...u32(slice.length), ...slice]),
    ...tag(9, 0x1_000_064, [0x27, 1, 0, 0, 0, ...u32(slice.length), ...slice]),
  ]);
  const start = [0, 0, 0, 1];

  it('cuts each picture out as soon as its tag is complete, the key frame led by its SPS and PPS', () => {
    for (const size of [1, 7, stream.length]) {
      const reader = new FlvAvcReader();
      const units = [];
      for (let i = 0; i < stream.length; i += size) units.push(...reader.push(stream.subarray(i, i + size)));
      expect(units.map((u) => ({ ...u, annexB: [...u.annexB] }))).toEqual([
        { timestampMs: 0, key: true, annexB: [...start, ...sps, ...start, ...pps, ...start, ...idr] },
        { timestampMs: 100, key: false, annexB: [...start, ...slice] },
        { timestampMs: 0x1_000_064, key: false, annexB: [...start, ...slice] },
      ]);
      expect(isVideoKeyFrame(VideoCodec.h264, Uint8Array.from(units[0]?.annexB ?? []))).toBe(true);
    }
  });

  it('refuses a stream that is not FLV', () => {
    expect(() => new FlvAvcReader().push(Uint8Array.from([0, 0, 0, 1, 0x67, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(
      /not an FLV stream/,
    );
  });
});

describe.skipIf(!ffmpegH264Available())('FfmpegH264Encoder (ffmpeg with libx264)', () => {
  it('encodes the drawn picture live: one unit per picture with its capture time, a decodable key frame every second', async () => {
    const fps = 10;
    const pictures: EncodedPicture[] = [];
    const encoder = new FfmpegH264Encoder({ width: 320, height: 240, fps, onPicture: (p) => pictures.push(p) });
    const pattern = new TestPattern(320, 240);
    const captured: number[] = [];
    try {
      for (let i = 0; captured.length < 25; i += 1) {
        // Each picture gets its own capture time, one a millisecond apart at least.
        const at = 1_767_225_600_000 + captured.length * 100;
        if (encoder.encode(pattern.draw(captured.length, at, 'test'), at)) captured.push(at);
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (i > 3000) throw new Error(`the encoder took only ${captured.length} pictures in 30 s`);
      }
      for (let i = 0; pictures.length < 25 && i < 3000; i += 1) await new Promise((r) => setTimeout(r, 10));
    } finally {
      encoder.close();
    }
    expect(pictures.map((p) => p.capturedAt)).toEqual(captured);
    // Zero latency, Constrained Baseline: a key frame (SPS, PPS, IDR) every `fps` pictures, one slice each.
    expect(pictures.map((p, i) => (p.key ? i : -1)).filter((i) => i >= 0)).toEqual([0, 10, 20]);
    expect(nalTypes(pictures[0]?.annexB as Uint8Array)).toEqual(expect.arrayContaining([7, 8, 5]));
    expect(pictures.every((p) => isVideoKeyFrame(VideoCodec.h264, p.annexB) === p.key)).toBe(true);
    expect([...(pictures[0]?.annexB as Uint8Array).subarray(4, 6)]).toEqual([0x67, 0x42]);
    // The units as sent, joined, are a stream ffmpeg itself decodes to 25 pictures of 320x240.
    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-count_frames', '-show_entries', 'stream=width,height,nb_read_frames', '-of', 'csv=p=0', '-'],
      { input: Buffer.concat(pictures.map((p) => p.annexB)), encoding: 'utf8' },
    );
    expect(probe.stdout.trim()).toBe('320,240,25');
  }, 60_000);
});
