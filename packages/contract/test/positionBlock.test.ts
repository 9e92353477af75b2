import { describe, expect, it } from 'vitest';
import {
  POSITION_BLOCK_VERSION,
  PositionBlockError,
  PositionBlockVersionError,
  decodePositionBlock,
  encodePositionBlock,
  fixAt,
  type PositionFix,
} from '../src/index.js';

const T0 = 1_767_225_600_000;

function fix(U_ID: number, more: Partial<PositionFix> = {}): PositionFix {
  return {
    U_ID,
    lat: 30.1234567,
    lon: 120.7654321,
    time: T0,
    speed: 12.3,
    course: 271.5,
    online: true,
    talking: false,
    gpsOnline: true,
    ...more,
  };
}

function roundTrip(fixes: PositionFix[]): PositionFix[] {
  const columns = decodePositionBlock(encodePositionBlock(fixes));
  return Array.from({ length: columns.count }, (_, index) => fixAt(columns, index));
}

describe('position block: what goes in comes out', () => {
  const cases: [string, PositionFix[], PositionFix[]?][] = [
    ['no fix', []],
    ['one fix', [fix(1)]],
    [
      'the extremes of the globe and of the ids',
      [fix(1, { lat: 90, lon: 180 }), fix(2, { lat: -90, lon: -180 }), fix(0xffffffff, { lat: 0, lon: 0 })],
    ],
    [
      'every state bit alone and together',
      [
        fix(1, { online: false, talking: false, gpsOnline: false }),
        fix(2, { online: true, talking: false, gpsOnline: false }),
        fix(3, { online: false, talking: true, gpsOnline: false }),
        fix(4, { online: false, talking: false, gpsOnline: true }),
        fix(5, { online: true, talking: true, gpsOnline: true }),
      ],
    ],
    ['no speed nor course', [fix(1, { speed: null, course: null })]],
    [
      'times a few ms apart, in any order (u32 deltas after the oldest)',
      [fix(1, { time: T0 + 999 }), fix(2, { time: T0 }), fix(3, { time: T0 + 4_000_000_000 })],
    ],
    ['times further apart than u32 ms (f64 times)', [fix(1, { time: T0 }), fix(2, { time: T0 - 90 * 86_400_000 })]],
    ['a time with a fraction of a ms (f64 times)', [fix(1, { time: T0 + 0.5 })]],
    [
      'speed and course in tenths; a speed past the column is capped, a negative one is 0',
      [fix(1, { speed: 12.34, course: 359.96 }), fix(2, { speed: 1e9, course: 0 }), fix(3, { speed: -5 })],
      [fix(1, { speed: 12.3, course: 360 }), fix(2, { speed: 6553.4, course: 0 }), fix(3, { speed: 0 })],
    ],
    [
      'lat and lon rounded to 1e-7 degrees',
      [fix(1, { lat: 30.123456789, lon: -120.000000049 })],
      [fix(1, { lat: 30.1234568, lon: -120 })],
    ],
  ];

  it.each(cases)('%s', (_name, fixes, expected = fixes) => {
    const decoded = roundTrip(fixes);
    expect(decoded).toHaveLength(expected.length);
    decoded.forEach((got, index) => {
      const want = expected[index]!;
      expect({ ...got, lat: undefined, lon: undefined, speed: undefined, course: undefined }).toEqual({
        ...want,
        lat: undefined,
        lon: undefined,
        speed: undefined,
        course: undefined,
      });
      expect(got.lat).toBeCloseTo(want.lat, 7);
      expect(got.lon).toBeCloseTo(want.lon, 7);
      for (const key of ['speed', 'course'] as const) {
        if (want[key] === null) expect(got[key]).toBeNull();
        else expect(got[key]).toBeCloseTo(want[key], 5);
      }
    });
  });
});

describe('position block: bytes', () => {
  it('is 14 header bytes and 21 bytes a fix with u32 time deltas, 25 with f64 times', () => {
    expect(encodePositionBlock([fix(1), fix(2, { time: T0 + 1000 })])).toHaveLength(14 + 2 * 21);
    expect(encodePositionBlock([fix(1), fix(2, { time: T0 + 2 ** 33 })])).toHaveLength(14 + 2 * 25);
  });

  it('lays the header and columns out as docs/realtime.md writes them', () => {
    const bytes = encodePositionBlock([fix(258, { time: T0 + 5, lat: -1, lon: 2, speed: 1, course: null })]);
    const view = new DataView(bytes.buffer);
    expect(view.getUint8(0)).toBe(POSITION_BLOCK_VERSION);
    expect(view.getUint8(1)).toBe(0);
    expect(view.getUint32(2, true)).toBe(1);
    expect(view.getFloat64(6, true)).toBe(T0 + 5);
    expect([...bytes.subarray(14, 18)]).toEqual([2, 1, 0, 0]);
    expect(view.getInt32(18, true)).toBe(20_000_000);
    expect(view.getInt32(22, true)).toBe(-10_000_000);
    expect(view.getUint32(26, true)).toBe(0);
    expect(view.getUint16(30, true)).toBe(10);
    expect(view.getUint16(32, true)).toBe(0xffff);
    expect(view.getUint8(34)).toBe(1 | 4);
  });
});

describe('position block: what the decoder refuses', () => {
  const good = encodePositionBlock([fix(1), fix(2)]);
  const withVersion = (version: number) => {
    const copy = good.slice();
    copy[0] = version;
    return copy;
  };
  const cases: [string, Uint8Array, RegExp][] = [
    ['a version it does not know (2)', withVersion(2), /version 2 is not known; this decoder reads version 1/],
    ['version 0', withVersion(0), /version 0 is not known/],
    ['an empty block', new Uint8Array(0), /shorter than its header/],
    ['a block cut short', good.subarray(0, good.length - 1), /length does not match its 2 fixes/],
    ['a block with bytes after its fixes', new Uint8Array([...good, 0]), /length does not match/],
  ];

  it.each(cases)('%s', (_name, bytes, message) => {
    expect(() => decodePositionBlock(bytes)).toThrow(PositionBlockError);
    expect(() => decodePositionBlock(bytes)).toThrow(message);
  });

  it('names the version it does not know', () => {
    expect(() => decodePositionBlock(withVersion(7))).toThrow(PositionBlockVersionError);
  });

  it('reads a block inside a larger buffer (as a MessagePack bin is)', () => {
    const framed = new Uint8Array([9, 9, 9, ...good]);
    expect(decodePositionBlock(framed.subarray(3)).count).toBe(2);
  });
});
