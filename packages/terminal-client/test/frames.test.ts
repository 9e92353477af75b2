import { AudioFrame, TalkLimits, VideoFrame, VideoLimits } from '@intercom/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FrameLimits,
  decodeAudioDown,
  decodeAudioUp,
  decodeVideoDown,
  decodeVideoUp,
  encodeAudioDown,
  encodeAudioUp,
  encodeVideoDown,
  encodeVideoUp,
  frameKind,
} from '../src/frames.js';

const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const nonZeroU32 = fc.integer({ min: 1, max: 0xffff_ffff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u8 = fc.integer({ min: 0, max: 0xff });
const opus = fc.uint8Array({ minLength: 1, maxLength: TalkLimits.maxOpusBytes });
const payload = fc.uint8Array({ minLength: 1, maxLength: 4096 });

/** Every layout, described once: the property tests below walk them all. */
interface Layout {
  name: string;
  kind: number;
  headerBytes: number;
  maxBytes: number;
  /** The largest packet or payload the contract allows. */
  maxBody: number;
  fields: fc.Arbitrary<Record<string, unknown>>;
  encode(fields: Record<string, unknown>): Uint8Array;
  decode(frame: Uint8Array): object | null;
  /** The field holding the packet or payload. */
  body: string;
}

const n = (value: unknown) => value as number;
const bytes = (value: unknown) => value as Uint8Array;

const layouts: Layout[] = [
  {
    name: 'audio up',
    kind: AudioFrame.kindOpus,
    headerBytes: AudioFrame.upHeaderBytes,
    maxBytes: FrameLimits.audioUpBytes,
    maxBody: TalkLimits.maxOpusBytes,
    fields: fc.record({ cid: nonZeroU32, seq: u16, opus }),
    encode: (f) => encodeAudioUp(n(f.cid), n(f.seq), bytes(f.opus)),
    decode: (frame) => decodeAudioUp(frame),
    body: 'opus',
  },
  {
    name: 'audio down',
    kind: AudioFrame.kindOpus,
    headerBytes: AudioFrame.downHeaderBytes,
    maxBytes: FrameLimits.audioDownBytes,
    maxBody: TalkLimits.maxOpusBytes,
    fields: fc.record({ cid: nonZeroU32, speaker: u32, seq: u16, opus }),
    encode: (f) => encodeAudioDown(n(f.cid), n(f.speaker), n(f.seq), bytes(f.opus)),
    decode: (frame) => decodeAudioDown(frame),
    body: 'opus',
  },
  {
    name: 'video up',
    kind: VideoFrame.kindVideo,
    headerBytes: VideoFrame.upHeaderBytes,
    maxBytes: FrameLimits.videoUpBytes,
    maxBody: VideoLimits.maxFrameBytes,
    fields: fc.record({ codec: u8, timestamp: u32, payload }),
    encode: (f) => encodeVideoUp(n(f.codec), n(f.timestamp), bytes(f.payload)),
    decode: (frame) => decodeVideoUp(frame),
    body: 'payload',
  },
  {
    name: 'video down',
    kind: VideoFrame.kindVideo,
    headerBytes: VideoFrame.downHeaderBytes,
    maxBytes: FrameLimits.videoDownBytes,
    maxBody: VideoLimits.maxFrameBytes,
    fields: fc.record({ uid: u32, codec: u8, timestamp: u32, payload }),
    encode: (f) => encodeVideoDown(n(f.uid), n(f.codec), n(f.timestamp), bytes(f.payload)),
    decode: (frame) => decodeVideoDown(frame),
    body: 'payload',
  },
];

/** A frame of `length` bytes of the layout's kind (its header otherwise valid: cid 1). */
function frameOf(layout: Layout, length: number): Uint8Array {
  const frame = new Uint8Array(length);
  frame[0] = layout.kind;
  if (length > 4) frame[4] = 1;
  return frame;
}

describe.each(layouts)('$name frames', (layout) => {
  it('decode gives back every field that was encoded', () => {
    fc.assert(
      fc.property(layout.fields, (fields) => {
        const frame = layout.encode(fields);
        expect(frame.length).toBe(layout.headerBytes + bytes(fields[layout.body]).length);
        expect(frameKind(frame)).toBe(layout.kind);
        expect(layout.decode(frame)).toEqual(fields);
      }),
    );
  });

  it('decodes a Buffer (or a view into a larger buffer) to views of it, copying nothing', () => {
    fc.assert(
      fc.property(layout.fields, fc.nat(16), (fields, offset) => {
        const encoded = layout.encode(fields);
        const whole = Buffer.alloc(offset + encoded.length);
        whole.set(encoded, offset);
        const frame = whole.subarray(offset);
        const body = bytes((layout.decode(frame) as Record<string, unknown> | null)?.[layout.body]);
        expect(Buffer.isBuffer(body)).toBe(true);
        expect(body.buffer).toBe(whole.buffer);
        expect(body.byteOffset).toBe(frame.byteOffset + layout.headerBytes);
      }),
    );
  });

  it('refuses a header alone or less (no packet or payload)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: layout.headerBytes }), (length) => {
        expect(layout.decode(frameOf(layout, length))).toBeNull();
      }),
    );
  });

  it('refuses any other kind', () => {
    fc.assert(
      fc.property(
        layout.fields,
        u8.filter((kind) => kind !== layout.kind),
        (fields, kind) => {
          const frame = layout.encode(fields);
          frame[0] = kind;
          expect(layout.decode(frame)).toBeNull();
        },
      ),
    );
  });

  it('takes the largest packet the contract allows and refuses one byte more', () => {
    expect(layout.maxBytes).toBe(layout.headerBytes + layout.maxBody);
    expect(layout.decode(frameOf(layout, layout.maxBytes))).not.toBeNull();
    expect(layout.decode(frameOf(layout, layout.maxBytes + 1))).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70_000 }), (over) => {
        expect(layout.decode(frameOf(layout, layout.maxBytes + over))).toBeNull();
      }),
      { numRuns: 20 },
    );
  });
});

describe('audio frames', () => {
  it.each([
    ['up', (cid: number) => decodeAudioUp(encodeAudioUp(cid, 5, new Uint8Array([9])))],
    ['down', (cid: number) => decodeAudioDown(encodeAudioDown(cid, 7, 5, new Uint8Array([9])))],
  ])('%s: refuses channel 0 and takes any other', (_, decodeWith) => {
    expect(decodeWith(0)).toBeNull();
    expect(decodeWith(1)).not.toBeNull();
  });

  it('lays out the protocol document examples byte for byte (channel 42, seq 5, user 7)', () => {
    const packet = new Uint8Array([0xf8, 0xff, 0xfe]);
    expect(Buffer.from(encodeAudioUp(42, 5, packet)).toString('hex')).toBe('010000002a0005f8fffe');
    expect(Buffer.from(encodeAudioDown(42, 7, 5, packet)).toString('hex')).toBe('010000002a000000070005f8fffe');
  });

  it('counts seq modulo 2^16, as a terminal wraps it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (seq) => {
        expect(decodeAudioUp(encodeAudioUp(1, seq, new Uint8Array([1])))?.seq).toBe(seq % 2 ** 16);
        expect(decodeAudioDown(encodeAudioDown(1, 0, seq, new Uint8Array([1])))?.seq).toBe(seq % 2 ** 16);
      }),
    );
  });

  it("writes into the caller's allocation: the server's Buffer.allocUnsafe", () => {
    const frame = encodeAudioDown(42, 7, 5, Buffer.from([1, 2]), (size) => Buffer.allocUnsafe(size));
    expect(Buffer.isBuffer(frame)).toBe(true);
    expect(frame.toString('hex')).toBe('010000002a0000000700050102');
  });
});

describe('video frames', () => {
  it('lays out the protocol document example byte for byte (user 7, JPEG at 1767225600123 ms)', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
    const at = 1767225600123 % 2 ** 32;
    expect(Buffer.from(encodeVideoUp(2, at, jpeg)).toString('hex')).toBe('020276daa87bffd8ffe0');
    expect(Buffer.from(encodeVideoDown(7, 2, at, jpeg)).toString('hex')).toBe('02000000070276daa87bffd8ffe0');
  });

  it('keeps the timestamp modulo 2^32 (epoch ms do not fit 32 bits)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (ms) => {
        expect(decodeVideoUp(encodeVideoUp(1, ms, new Uint8Array([1])))?.timestamp).toBe(ms % 2 ** 32);
        expect(decodeVideoDown(encodeVideoDown(7, 1, ms, new Uint8Array([1])))?.timestamp).toBe(ms % 2 ** 32);
      }),
    );
  });

  it('relays an up frame as the down frame every viewer gets, without touching its payload', () => {
    fc.assert(
      fc.property(nonZeroU32, u8, u32, payload, (uid, codec, timestamp, body) => {
        const up = decodeVideoUp(Buffer.from(encodeVideoUp(codec, timestamp, body)));
        if (!up) throw new Error('refused a valid up frame');
        const down = encodeVideoDown(uid, up.codec, up.timestamp, up.payload, (size) => Buffer.allocUnsafe(size));
        expect(decodeVideoDown(down)).toEqual({ uid, codec, timestamp, payload: Buffer.from(body) });
      }),
    );
  });
});

describe('frameKind', () => {
  it('reads the first byte, and nothing of an empty frame', () => {
    expect(frameKind(new Uint8Array([2, 0]))).toBe(VideoFrame.kindVideo);
    expect(frameKind(new Uint8Array())).toBeUndefined();
  });
});
