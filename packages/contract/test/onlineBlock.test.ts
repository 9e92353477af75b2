import { encode } from '@msgpack/msgpack';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PackedOnlineBlockError, packOnlineUsers, unpackOnlineUsers, type OnlineUser } from '../src/index.js';

const user = (U_ID: number, name = `User ${U_ID}`): OnlineUser => ({
  U_ID,
  E_ID: 3,
  Phone: `1380000${U_ID}`,
  UserName: name,
  online: true,
  time: 1_767_225_600_000 + U_ID,
});

const columns = { U_ID: [1], E_ID: [3], Phone: ['13800001'], UserName: ['一'], time: [1] };
const packedOf = (value: unknown) => deflateSync(encode(value));

describe('OnlineBlock', () => {
  it('unpacks what it packed: the users in order, online, with the count', () => {
    const users = [user(1), user(2, '巡逻 二号'), user(3, '')];
    expect(unpackOnlineUsers(packOnlineUsers(users, 7))).toEqual({ count: 7, users });
    expect(unpackOnlineUsers(packOnlineUsers([], 0))).toEqual({ count: 0, users: [] });
  });

  it('packs 10,000 users in a fraction of their MessagePack maps', () => {
    const users = Array.from({ length: 10_000 }, (_, i) => user(100_000 + i));
    expect(packOnlineUsers(users, users.length).packed.length).toBeLessThan(encode(users).length / 4);
  });

  it.each([
    ['no object', 'OnlineBlock'],
    ['no packed bytes', { count: 1, packed: 'text' }],
    ['a count below zero', { count: -1, packed: packedOf(columns) }],
    ['bytes that are not DEFLATE', { count: 1, packed: new Uint8Array([0xff, 0xff, 0xff, 0xff]) }],
    ['DEFLATE of what is not MessagePack', { count: 1, packed: deflateSync(new Uint8Array([0xc1])) }],
    ['MessagePack that is not columns', { count: 1, packed: packedOf({ users: [user(1)] }) }],
    ['a column of the wrong kind', { count: 1, packed: packedOf({ ...columns, Phone: [13800001] }) }],
    ['a user id that is no integer', { count: 1, packed: packedOf({ ...columns, U_ID: [1.5] }) }],
    ['a time before 1970', { count: 1, packed: packedOf({ ...columns, time: [-1] }) }],
    ['columns of different lengths', { count: 1, packed: packedOf({ ...columns, time: [1, 2] }) }],
  ])('refuses %s with PackedOnlineBlockError', (_case, data) => {
    expect(() => unpackOnlineUsers(data)).toThrow(PackedOnlineBlockError);
  });
});
