import type { LiveUser } from './eventBus.js';

/**
 * A `users` batch on the Redis bus as one binary frame (docs/realtime.md, "The bus's users frame"):
 * at 50,000 moves a second, decoding the same batches as JSON (the message's UTF-8 text, then
 * `JSON.parse`) was the larger half of an instance's ingest. Little-endian throughout:
 *
 *   u8 version (1) · u8 origin byte length n · n bytes origin (UTF-8) · u32 E_ID · u32 count
 *   count users, each:
 *     u32 U_ID · u8 flags (1 online, 2 talking, 4 has a position) · f64 onlineAt
 *     f64 battery · f64 signal                       (NaN: null)
 *     if it has a position: f64 lat · f64 lon · f64 time · f64 speed · f64 course · f64 interval
 *                                                    (speed, course NaN: null)
 *     u16 Phone byte length · Phone (UTF-8) · u16 UserName byte length · UserName (UTF-8)
 *
 * Numbers JSON cannot hold travel as JSON would carry them: a null battery, signal, speed or course
 * stays null, and a non-finite one arrives as null.
 */
export const USERS_FRAME_VERSION = 1;

const ONLINE = 1;
const TALKING = 2;
const HAS_POSITION = 4;
const KNOWN_FLAGS = ONLINE | TALKING | HAS_POSITION;
/** Bytes of a user before its position: U_ID, flags, onlineAt, battery, signal. */
const USER_HEAD = 4 + 1 + 8 * 3;
/** The least a user takes: its head and the two texts' lengths. */
const USER_FIXED = USER_HEAD + 2 * 2;
const POSITION_BYTES = 8 * 6;
const MAX_TEXT_BYTES = 0xffff;

/** A frame that is not a users frame this instance can read: the bus reports it and drops it. */
export class UsersFrameError extends Error {
  constructor(message: string) {
    super(`users frame refused: ${message}`);
    this.name = 'UsersFrameError';
  }
}

export interface UsersFrame {
  /** The instance that published it (it skips its own). */
  origin: string;
  E_ID: number;
  users: LiveUser[];
}

const nullable = (value: number | null): number => (value !== null && Number.isFinite(value) ? value : Number.NaN);
const fromNullable = (value: number): number | null => (Number.isNaN(value) ? null : value);

/**
 * The frame of a batch. A user of another enterprise than `E_ID` is left out: the frame names one
 * enterprise for all its users, and instances take only that enterprise's users from a batch.
 * Throws a RangeError for what no frame can carry (an origin or a text too long).
 */
export function encodeUsersFrame(origin: string, E_ID: number, batch: readonly LiveUser[]): Buffer {
  const users = batch.filter((user) => user.E_ID === E_ID);
  const originBytes = Buffer.from(origin, 'utf8');
  if (originBytes.length > 0xff) throw new RangeError('users frame: origin longer than 255 bytes');
  const texts = users.map((user) => [Buffer.from(user.Phone, 'utf8'), Buffer.from(user.UserName, 'utf8')] as const);
  let size = 2 + originBytes.length + 8;
  for (const [index, user] of users.entries()) {
    const [phone, name] = texts[index]!;
    if (phone.length > MAX_TEXT_BYTES || name.length > MAX_TEXT_BYTES) {
      throw new RangeError(`users frame: user ${user.U_ID}'s phone or name is longer than ${MAX_TEXT_BYTES} bytes`);
    }
    size += USER_FIXED + (user.position ? POSITION_BYTES : 0) + phone.length + name.length;
  }
  const frame = Buffer.allocUnsafe(size);
  let at = frame.writeUInt8(USERS_FRAME_VERSION, 0);
  at = frame.writeUInt8(originBytes.length, at);
  at += originBytes.copy(frame, at);
  at = frame.writeUInt32LE(E_ID, at);
  at = frame.writeUInt32LE(users.length, at);
  for (const [index, user] of users.entries()) {
    const position = user.position;
    at = frame.writeUInt32LE(user.U_ID, at);
    at = frame.writeUInt8(
      (user.online ? ONLINE : 0) | (user.talking ? TALKING : 0) | (position ? HAS_POSITION : 0),
      at,
    );
    at = frame.writeDoubleLE(user.onlineAt, at);
    at = frame.writeDoubleLE(nullable(user.battery), at);
    at = frame.writeDoubleLE(nullable(user.signal), at);
    if (position) {
      at = frame.writeDoubleLE(position.lat, at);
      at = frame.writeDoubleLE(position.lon, at);
      at = frame.writeDoubleLE(position.time, at);
      at = frame.writeDoubleLE(nullable(position.speed), at);
      at = frame.writeDoubleLE(nullable(position.course), at);
      at = frame.writeDoubleLE(position.interval, at);
    }
    for (const text of texts[index]!) {
      at = frame.writeUInt16LE(text.length, at);
      at += text.copy(frame, at);
    }
  }
  return frame;
}

/** The origin of a frame alone, so an instance skips its own echo without decoding the users. */
export function usersFrameOrigin(frame: Buffer): string {
  checkVersion(frame);
  const length = frame.readUInt8(1);
  if (frame.length < 2 + length) throw new UsersFrameError(`${frame.length} bytes end inside the origin`);
  return frame.toString('utf8', 2, 2 + length);
}

/** The batch of a frame; a UsersFrameError for an unknown version, a cut or overlong frame, unknown flags. */
export function decodeUsersFrame(frame: Buffer): UsersFrame {
  const origin = usersFrameOrigin(frame);
  let at = 2 + frame.readUInt8(1);
  need(frame, at, 8, 'the header');
  const E_ID = frame.readUInt32LE(at);
  const count = frame.readUInt32LE(at + 4);
  at += 8;
  // Every user takes at least USER_FIXED bytes: a count past that is refused before any allocation.
  if (count > (frame.length - at) / USER_FIXED) {
    throw new UsersFrameError(`a count of ${count} users does not fit in ${frame.length} bytes`);
  }
  const users: LiveUser[] = new Array<LiveUser>(count);
  for (let index = 0; index < count; index++) {
    need(frame, at, USER_HEAD, `user ${index}`);
    const U_ID = frame.readUInt32LE(at);
    const flags = frame.readUInt8(at + 4);
    if ((flags & ~KNOWN_FLAGS) !== 0) throw new UsersFrameError(`user ${index} has unknown flags ${flags}`);
    const onlineAt = frame.readDoubleLE(at + 5);
    const battery = fromNullable(frame.readDoubleLE(at + 13));
    const signal = fromNullable(frame.readDoubleLE(at + 21));
    at += USER_HEAD;
    let position: LiveUser['position'] = null;
    if (flags & HAS_POSITION) {
      need(frame, at, POSITION_BYTES, `user ${index}'s position`);
      position = {
        lat: frame.readDoubleLE(at),
        lon: frame.readDoubleLE(at + 8),
        time: frame.readDoubleLE(at + 16),
        speed: fromNullable(frame.readDoubleLE(at + 24)),
        course: fromNullable(frame.readDoubleLE(at + 32)),
        interval: frame.readDoubleLE(at + 40),
      };
      at += POSITION_BYTES;
    }
    const phone = readText(frame, at, index, 'phone');
    const name = readText(frame, phone.end, index, 'name');
    at = name.end;
    users[index] = {
      E_ID,
      U_ID,
      Phone: phone.text,
      UserName: name.text,
      position,
      battery,
      signal,
      online: (flags & ONLINE) !== 0,
      onlineAt,
      talking: (flags & TALKING) !== 0,
    };
  }
  if (at !== frame.length) throw new UsersFrameError(`${frame.length - at} bytes after the last user`);
  return { origin, E_ID, users };
}

function checkVersion(frame: Buffer): void {
  if (frame.length < 2) throw new UsersFrameError(`${frame.length} bytes are no frame`);
  const version = frame.readUInt8(0);
  if (version !== USERS_FRAME_VERSION) {
    throw new UsersFrameError(`version ${version} is not known here (this instance reads ${USERS_FRAME_VERSION})`);
  }
}

function need(frame: Buffer, at: number, bytes: number, what: string): void {
  if (at + bytes > frame.length) throw new UsersFrameError(`the frame ends inside ${what}`);
}

function readText(frame: Buffer, at: number, index: number, what: string): { text: string; end: number } {
  need(frame, at, 2, `user ${index}'s ${what}`);
  const length = frame.readUInt16LE(at);
  const start = at + 2;
  need(frame, start, length, `user ${index}'s ${what}`);
  return { text: frame.toString('utf8', start, start + length), end: start + length };
}
