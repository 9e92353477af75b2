import zlib from 'node:zlib';
import {
  GpsBlockReader,
  PackedOnlineBlockError,
  encodePositionBlock,
  packGpsBlock,
  packOnlineUsers,
  unpackOnlineUsers,
  userColumnsOf,
  type GpsRecord,
  type OnlineUser,
} from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { nativeDeflate } from '../../src/hub/nativeDeflate.js';

const onlineUser = (U_ID: number): OnlineUser => ({
  U_ID,
  E_ID: 3,
  Phone: `1380000${U_ID}`,
  UserName: `巡逻 ${U_ID}`,
  online: true,
  time: 1_767_225_600_000 + U_ID,
});

const gpsRecord = (U_ID: number): GpsRecord => ({
  U_ID,
  Phone: `1360000${U_ID}`,
  UserName: `User ${U_ID}`,
  E_ID: 3,
  battery: 80,
  signal: 70,
  interval: 60,
  lat: 22.5 + U_ID / 1e4,
  lon: 114,
  time: 1_767_225_600_000,
  speed: 10,
  course: 180,
  online: true,
  talking: false,
  gpsOnline: true,
});

// The console reads packed snapshots with the contract's readers (fflate's inflate); the server packs
// them with Node's zlib. Either must read what the other wrote.
describe("snapshots packed by Node's zlib", () => {
  it('are online blocks the contract reads as the same users, with the count', () => {
    const users = Array.from({ length: 2_000 }, (_, i) => onlineUser(i + 1));
    const packed = packOnlineUsers(users, 2_500, nativeDeflate);
    expect(Buffer.from(packed.packed)).not.toEqual(Buffer.from(packOnlineUsers(users, 2_500).packed));
    expect(unpackOnlineUsers(packed)).toEqual({ count: 2_500, users });
  });

  it('are GPS blocks the contract reads as the same records', () => {
    const records = Array.from({ length: 1_000 }, (_, i) => gpsRecord(i + 1));
    const plain = { full: true, block: encodePositionBlock(records), users: userColumnsOf(records) };
    const packed = packGpsBlock(plain, nativeDeflate);
    expect(packed.packed.length).toBeLessThan(plain.block.length);
    expect(new GpsBlockReader().read(packed)).toEqual(new GpsBlockReader().read(plain));
  });

  it("are raw DEFLATE: zlib's own wrapping would be refused, not misread", () => {
    const users = [onlineUser(1)];
    expect(() => unpackOnlineUsers(packOnlineUsers(users, 1, (bytes) => zlib.deflateSync(bytes)))).toThrow(
      PackedOnlineBlockError,
    );
  });
});
