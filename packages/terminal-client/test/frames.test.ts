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
const audioUpFields = fc.record({ cid: nonZeroU32, seq: u16, opus });
const videoUpFields = fc.record({ codec: u8, timestamp: u32, payload });
const audioDownFields = fc.record({ cid: nonZeroU32, speaker: u32, seq: u16, opus });
const videoDownFields = fc.record({ uid: u32, codec: u8, timestamp: u32, payload });

/** Every layout, described once: the property tests below walk them all. */
interface Layout {
  name: string;
  kind: number;
  headerBytes: number;
  maxBytes: number;
  fields: fc.Arbitrary<Record<string, unknown>>;
  encode(fields: Record<string, unknown>): Uint8Array;
  decode(frame: Uint8Array): object | null;
  /** The field holding the packet or payload. */
  body: string;
}

/** Header sizes are the protocol document's numbers, not the contract's constants, to check those too. */
function layout<F extends Record<string, unknown>>(
  name: string,
  headerBytes: number,
  maxBytes: number,
  fields: fc.Arbitrary<F>,
  encode: (fields: F) => Uint8Array,
  decode: (frame: Uint8Array) => object | null,
): Layout {
  const audio = name.startsWith('audio');
  const kind = audio ? AudioFrame.kindOpus : VideoFrame.kindVideo;
  const body = audio ? 'opus' : 'payload';
  const widened = { fields: fields as fc.Arbitrary<Record<string, unknown>>, encode };
  return { name, kind, headerBytes, maxBytes, decode, body, ...widened };
}

const layouts: Layout[] = [
  layout('audio up', 7, FrameLimits.audioUpBytes, audioUpFields, encodeAudioUp, decodeAudioUp),
  layout('audio down', 11, FrameLimits.audioDownBytes, audioDownFields, encodeAudioDown, decodeAudioDown),
  layout('video up', 6, FrameLimits.videoUpBytes, videoUpFields, encodeVideoUp, decodeVideoUp),
  layout('video down', 10, FrameLimits.videoDownBytes, videoDownFields, encodeVideoDown, decodeVideoDown),
];

const bytes = (value: unknown) => value as Uint8Array;

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
    const maxBody = layout.kind === AudioFrame.kindOpus ? TalkLimits.maxOpusBytes : VideoLimits.maxFrameBytes;
    expect(layout.maxBytes).toBe(layout.headerBytes + maxBody);
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
    ['up', (cid: number) => decodeAudioUp(encodeAudioUp({ cid, seq: 5, opus: new Uint8Array([9]) }))],
    ['down', (cid: number) => decodeAudioDown(encodeAudioDown({ cid, speaker: 7, seq: 5, opus: new Uint8Array([9]) }))],
  ])('%s: refuses channel 0 and takes any other', (_, decodeWith) => {
    expect(decodeWith(0)).toBeNull();
    expect(decodeWith(1)).not.toBeNull();
  });

  it('lays out the protocol document examples byte for byte (channel 42, seq 5, user 7)', () => {
    const packet = new Uint8Array([0xf8, 0xff, 0xfe]);
    expect(Buffer.from(encodeAudioUp({ cid: 42, seq: 5, opus: packet })).toString('hex')).toBe('010000002a0005f8fffe');
    expect(Buffer.from(encodeAudioDown({ cid: 42, speaker: 7, seq: 5, opus: packet })).toString('hex')).toBe(
      '010000002a000000070005f8fffe',
    );
  });

  it('counts seq modulo 2^16, as a terminal wraps it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (seq) => {
        expect(decodeAudioUp(encodeAudioUp({ cid: 1, seq, opus: new Uint8Array([1]) }))?.seq).toBe(seq % 2 ** 16);
        expect(decodeAudioDown(encodeAudioDown({ cid: 1, speaker: 0, seq, opus: new Uint8Array([1]) }))?.seq).toBe(
          seq % 2 ** 16,
        );
      }),
    );
  });

  it("writes into the caller's allocation: the server's Buffer.allocUnsafe", () => {
    const frame = encodeAudioDown({ cid: 42, speaker: 7, seq: 5, opus: Buffer.from([1, 2]) }, (size) =>
      Buffer.allocUnsafe(size),
    );
    expect(Buffer.isBuffer(frame)).toBe(true);
    expect(frame.toString('hex')).toBe('010000002a0000000700050102');
  });
});

describe('video frames', () => {
  it('lays out the protocol document example byte for byte (user 7, JPEG at 1767225600123 ms)', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
    const at = 1767225600123 % 2 ** 32;
    expect(Buffer.from(encodeVideoUp({ codec: 2, timestamp: at, payload: jpeg })).toString('hex')).toBe(
      '020276daa87bffd8ffe0',
    );
    expect(Buffer.from(encodeVideoDown({ uid: 7, codec: 2, timestamp: at, payload: jpeg })).toString('hex')).toBe(
      '02000000070276daa87bffd8ffe0',
    );
  });

  it('keeps the timestamp modulo 2^32 (epoch ms do not fit 32 bits)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (ms) => {
        expect(decodeVideoUp(encodeVideoUp({ codec: 1, timestamp: ms, payload: new Uint8Array([1]) }))?.timestamp).toBe(
          ms % 2 ** 32,
        );
        expect(
          decodeVideoDown(encodeVideoDown({ uid: 7, codec: 1, timestamp: ms, payload: new Uint8Array([1]) }))
            ?.timestamp,
        ).toBe(ms % 2 ** 32);
      }),
    );
  });

  it('relays an up frame as the down frame every viewer gets, without touching its payload', () => {
    fc.assert(
      fc.property(nonZeroU32, u8, u32, payload, (uid, codec, timestamp, body) => {
        const up = decodeVideoUp(Buffer.from(encodeVideoUp({ codec, timestamp, payload: body })));
        if (!up) throw new Error('refused a valid up frame');
        const down = encodeVideoDown({ ...up, uid }, (size) => Buffer.allocUnsafe(size));
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
