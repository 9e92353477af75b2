import { describe, expect, it } from 'vitest';
import type { LiveUser } from '../../src/bus/eventBus.js';
import {
  USERS_FRAME_VERSION,
  UsersFrameError,
  decodeUsersFrame,
  encodeUsersFrame,
  usersFrameOrigin,
} from '../../src/bus/usersFrame.js';

const ORIGIN = '0b8f3c1e-7a51-4f0e-9d1c-2f4b6a8c0e12';

function user(fields: Partial<LiveUser> = {}): LiveUser {
  return {
    E_ID: 3,
    U_ID: 17,
    Phone: '13600000017',
    UserName: 'Unit 17',
    position: { lat: 22.543096, lon: 114.057865, time: 1_790_000_000_123, speed: 12.5, course: 270, interval: 10 },
    battery: 80,
    signal: 4,
    online: true,
    onlineAt: 1_790_000_000_000,
    talking: false,
    ...fields,
  };
}

/** The batch the JSON envelope would have carried: what a users frame must give back. */
const viaJson = (users: LiveUser[]) => JSON.parse(JSON.stringify(users)) as LiveUser[];

describe('the bus users frame (docs/realtime.md)', () => {
  const cases: [string, LiveUser[]][] = [
    ['no user', []],
    ['one user with every field', [user()]],
    ['a user without a fix', [user({ position: null })]],
    [
      'nulls: battery, signal, speed and course',
      [user({ battery: null, signal: null, position: { ...user().position!, speed: null, course: null } })],
    ],
    [
      'offline, talking, chat-online flags',
      [user({ online: false, talking: true }), user({ U_ID: 18, online: true, talking: true })],
    ],
    [
      'names and phones in any script, and empty',
      [user({ UserName: '调度员 Zoë 👷', Phone: '' }), user({ U_ID: 19, UserName: '' })],
    ],
    [
      'the largest ids and negative coordinates',
      [user({ U_ID: 0xffff_ffff, position: { ...user().position!, lat: -33.9, lon: -70.6 } })],
    ],
  ];
  for (const [name, users] of cases) {
    it(`gives back what JSON would: ${name}`, () => {
      const frame = encodeUsersFrame(ORIGIN, 3, users);
      expect(frame[0]).toBe(USERS_FRAME_VERSION);
      expect(usersFrameOrigin(frame)).toBe(ORIGIN);
      expect(decodeUsersFrame(frame)).toEqual({ origin: ORIGIN, E_ID: 3, users: viaJson(users) });
    });
  }

  it('leaves out a user of another enterprise than the batch names', () => {
    const users = [user({ U_ID: 1 }), user({ U_ID: 2, E_ID: 4 }), user({ U_ID: 3 })];
    const back = decodeUsersFrame(encodeUsersFrame(ORIGIN, 3, users));
    expect(back.users.map((u) => [u.E_ID, u.U_ID])).toEqual([
      [3, 1],
      [3, 3],
    ]);
  });

  it('carries numbers JSON cannot hold as JSON does: null', () => {
    const odd = user({
      battery: Number.NaN,
      position: { ...user().position!, speed: Number.POSITIVE_INFINITY, course: Number.NaN },
    });
    const [back] = decodeUsersFrame(encodeUsersFrame(ORIGIN, 3, [odd])).users;
    expect(back).toEqual(viaJson([odd])[0]);
    expect(back).toMatchObject({ battery: null, position: { speed: null, course: null } });
  });

  it('is far smaller than the JSON envelope of the same batch', () => {
    const users = Array.from({ length: 500 }, (_, i) => user({ U_ID: i, UserName: `Bench${i}` }));
    const frame = encodeUsersFrame(ORIGIN, 3, users);
    const json = JSON.stringify({ o: ORIGIN, e: { kind: 'users', E_ID: 3, users } });
    expect(frame.length).toBeLessThan(json.length / 2);
  });

  const good = encodeUsersFrame(ORIGIN, 3, [user(), user({ U_ID: 18, position: null })]);
  const refused: [string, Buffer, string][] = [
    ['an empty message', Buffer.alloc(0), '0 bytes are no frame'],
    ['a JSON envelope', Buffer.from('{"o":"x","e":{"kind":"users"}}'), 'version 123 is not known here'],
    ['an unknown version', Buffer.concat([Buffer.from([2]), good.subarray(1)]), 'version 2 is not known here'],
    ['bytes after the last user', Buffer.concat([good, Buffer.from([0])]), '1 bytes after the last user'],
    ['a count larger than the frame holds', withCount(good, 0xffff_ffff), 'does not fit'],
    ['unknown flags', withFirstFlags(good, 0x80), 'unknown flags 128'],
  ];
  for (const [name, frame, message] of refused) {
    it(`refuses ${name} with a clear error`, () => {
      expect(() => decodeUsersFrame(frame)).toThrow(UsersFrameError);
      expect(() => decodeUsersFrame(frame)).toThrow(message);
    });
  }

  it('refuses a frame cut at any byte with a UsersFrameError, never a RangeError', () => {
    for (let length = 0; length < good.length; length++) {
      expect(() => decodeUsersFrame(good.subarray(0, length)), `cut at ${length}`).toThrow(UsersFrameError);
    }
  });

  it('refuses to encode what no frame can carry', () => {
    expect(() => encodeUsersFrame('o'.repeat(256), 3, [])).toThrow(RangeError);
    expect(() => encodeUsersFrame(ORIGIN, 3, [user({ UserName: 'x'.repeat(0x10000) })])).toThrow(/longer than 65535/);
  });
});

/** `frame` with its user count replaced. */
function withCount(frame: Buffer, count: number): Buffer {
  const copy = Buffer.from(frame);
  copy.writeUInt32LE(count, 2 + copy[1]! + 4);
  return copy;
}

/** `frame` with its first user's flags byte replaced. */
function withFirstFlags(frame: Buffer, flags: number): Buffer {
  const copy = Buffer.from(frame);
  copy[2 + copy[1]! + 8 + 4] = flags;
  return copy;
}
