import { encode } from '@msgpack/msgpack';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  GpsBlockReader,
  PackedGpsBlockError,
  PositionBlockVersionError,
  encodePositionBlock,
  packGpsBlock,
  userColumnsOf,
  type GpsRecord,
} from '../src/index.js';

const SLOW = { E_ID: 3, battery: 80, signal: 70, interval: 60 };
const FIX = { lat: 22.5, lon: 114, time: 1_767_225_600_000, speed: 10, course: 180 };
const STATE = { online: true, talking: false, gpsOnline: true };

function gpsRecord(U_ID: number, change: Partial<GpsRecord> = {}): GpsRecord {
  return { U_ID, Phone: `1360000000${U_ID}`, UserName: `User ${U_ID}`, ...SLOW, ...FIX, ...STATE, ...change };
}

const data = (records: GpsRecord[], full: boolean, users = records) => ({
  full,
  block: encodePositionBlock(records),
  users: userColumnsOf(users),
});

describe('GpsBlockReader', () => {
  it('makes whole GpsRecords of a full block, then of deltas with the slow fields it was told', () => {
    const reader = new GpsBlockReader();
    const one = gpsRecord(1);
    const two = gpsRecord(2, { battery: null, signal: null, talking: true });
    expect(reader.read(data([one, two], true))).toEqual({ full: true, records: [one, two] });
    const moved = { ...two, lat: 23, lon: 115 };
    expect(reader.read(data([moved], false, []))).toEqual({ full: false, records: [moved] });
    const renamed = { ...moved, UserName: 'Renamed' };
    expect(reader.read(data([renamed], false))).toEqual({ full: false, records: [renamed] });
  });

  it('leaves out a fix of a user it was never told of; a full block forgets the users before it', () => {
    const reader = new GpsBlockReader();
    reader.read(data([gpsRecord(1)], true));
    expect(reader.read(data([gpsRecord(9)], false, [])).records).toEqual([]);
    reader.read(data([gpsRecord(2)], true));
    expect(reader.read(data([gpsRecord(1)], false, [])).records).toEqual([]);
  });

  it('refuses a malformed message and a block version it does not know', () => {
    const reader = new GpsBlockReader();
    const users = userColumnsOf([gpsRecord(1)]);
    expect(() => reader.read({ full: true, block: 'text', users })).toThrow();
    expect(() => reader.read({ ...data([gpsRecord(1)], true), users: { ...users, Phone: [] } })).toThrow(
      'differ in length',
    );
    const unknown = data([gpsRecord(1)], true);
    unknown.block[0] = 2;
    expect(() => reader.read(unknown)).toThrow(PositionBlockVersionError);
  });
});

describe('packed full blocks', () => {
  const many = Array.from({ length: 1000 }, (_, i) => gpsRecord(i + 1, { lat: 22 + i / 1e4 }));

  it('read as the same records as the plain block, in fewer bytes', () => {
    const plain = data(many, true);
    const packed = packGpsBlock(plain);
    expect(packed.full).toBe(true);
    expect(packed.packed.length).toBeLessThan(plain.block.length);
    expect(new GpsBlockReader().read(packed)).toEqual(new GpsBlockReader().read(plain));
    // Then deltas, with the slow fields the packed block told.
    const reader = new GpsBlockReader();
    reader.read(packed);
    const moved = { ...many[5]!, lat: 40 };
    expect(reader.read(data([moved], false, [])).records).toEqual([moved]);
  });

  it('only a full block is packed', () => {
    expect(() => packGpsBlock(data([gpsRecord(1)], false))).toThrow(RangeError);
  });

  const bad: [string, Uint8Array][] = [
    ['bytes that are not DEFLATE', new Uint8Array([0xff, 0xff, 0xff, 0xff])],
    ['DEFLATE of bytes that are not MessagePack', deflateSync(new Uint8Array([0xc1]))],
    ['DEFLATE of MessagePack without users', deflateSync(encode({ block: encodePositionBlock([gpsRecord(1)]) }))],
    ['DEFLATE of MessagePack whose block is text', deflateSync(encode({ block: 'x', users: userColumnsOf([]) }))],
  ];
  it.each(bad)('refuses %s with a PackedGpsBlockError and keeps what it held', (_name, bytes) => {
    const reader = new GpsBlockReader();
    reader.read(data([gpsRecord(1)], true));
    expect(() => reader.read({ full: true, packed: bytes })).toThrow(PackedGpsBlockError);
    expect(reader.read(data([gpsRecord(1, { lat: 23 })], false, [])).records).toHaveLength(1);
  });

  it('a packed delta is malformed', () => {
    const packed = packGpsBlock(data([gpsRecord(1)], true));
    expect(() => new GpsBlockReader().read({ ...packed, full: false })).toThrow();
  });
});
