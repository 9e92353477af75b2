import { decode, encode } from '@msgpack/msgpack';
import { inflateSync } from 'fflate';
import { z } from 'zod';
import type { GpsRecord } from './hub.js';
import { decodePositionBlock, fixAt, type PositionFix } from './positionBlock.js';
import { fflateDeflate, type RawDeflate } from './rawDeflate.js';

/**
 * `pushMsg` `{ type: 'GPSBlock', data }` — what MessagePack hub connections get instead of `GPSArray`
 * (`full`: every user of the scope, replacing what the client holds) and `GPS` (the changes of one
 * push). `block` is a position block (positionBlock.ts); `users` holds, as columns, the slow fields
 * of the users whose slow fields are new to the client: all of them in a full block, only those
 * that changed in a delta. A client that asked for packed snapshots (`FuncGPS` with
 * `{ packed: true }`) gets its full blocks as `{ full: true, packed }` instead: `packed` is the raw
 * DEFLATE (RFC 1951) of the MessagePack encoding of `{ block, users }`, a 50,000-user snapshot in
 * about half its bytes. docs/realtime.md, "Position blocks".
 */
export const GPS_BLOCK_TYPE = 'GPSBlock';

/** The fields of a GpsRecord that change seldom: never in a position block. */
export type UserFields = Pick<GpsRecord, 'U_ID' | 'E_ID' | 'Phone' | 'UserName' | 'battery' | 'signal' | 'interval'>;

const numbers = z.array(z.number());
const nullableNumbers = z.array(z.number().nullable());

export const userColumnsSchema = z.object({
  U_ID: numbers,
  E_ID: numbers,
  Phone: z.array(z.string()),
  UserName: z.array(z.string()),
  battery: nullableNumbers,
  signal: nullableNumbers,
  interval: numbers,
});
export type UserColumns = z.infer<typeof userColumnsSchema>;

/** A MessagePack `bin` (the packed blocks' bytes). */
export const binary = (name: string) =>
  z.custom<Uint8Array>((value) => value instanceof Uint8Array, `${name} must be binary`);

const blockAndUsersSchema = z.object({ block: binary('block'), users: userColumnsSchema });

export const gpsBlockDataSchema = blockAndUsersSchema.extend({ full: z.boolean() });
export type GpsBlockData = z.infer<typeof gpsBlockDataSchema>;

export const packedGpsBlockDataSchema = z.object({ full: z.literal(true), packed: binary('packed') });
/** A full block packed (`FuncGPS` with `{ packed: true }`). */
export type PackedGpsBlockData = z.infer<typeof packedGpsBlockDataSchema>;

/** The options of a `FuncGPS` or `FuncNotify` subscription (its first argument, optional). */
export const funcGpsOptionsSchema = z.strictObject({ packed: z.boolean().optional() });
export type FuncGpsOptions = z.infer<typeof funcGpsOptionsSchema>;

/** A packed full block that cannot be unpacked (not DEFLATE, or not the MessagePack of a block and its users). */
export class PackedGpsBlockError extends Error {
  override name = 'PackedGpsBlockError';
}

/** A full block packed: raw DEFLATE (by `deflate`; quick rather than small: a snapshot is packed on its way out) of its MessagePack. */
export function packGpsBlock(data: GpsBlockData, deflate: RawDeflate = fflateDeflate): PackedGpsBlockData {
  if (!data.full) throw new RangeError('Only a full GPS block is packed.');
  return { full: true, packed: deflate(encode({ block: data.block, users: data.users })) };
}

export function unpackGpsBlock(data: PackedGpsBlockData): GpsBlockData {
  let inner: unknown;
  try {
    inner = decode(inflateSync(data.packed));
  } catch (error) {
    throw new PackedGpsBlockError(`The packed GPS block cannot be unpacked: ${(error as Error).message}`);
  }
  const parsed = blockAndUsersSchema.safeParse(inner);
  if (!parsed.success) throw new PackedGpsBlockError('The packed GPS block does not hold a block and its users.');
  return { full: true, ...parsed.data };
}

/** A `GPSBlock` message's data, unpacked when it came packed (ZodError when it is neither kind). */
function blockDataOf(data: unknown): GpsBlockData {
  const packed = packedGpsBlockDataSchema.safeParse(data);
  return packed.success ? unpackGpsBlock(packed.data) : gpsBlockDataSchema.parse(data);
}

export function userColumnsOf(users: Iterable<UserFields>): UserColumns {
  const columns: UserColumns = { U_ID: [], E_ID: [], Phone: [], UserName: [], battery: [], signal: [], interval: [] };
  for (const user of users) {
    columns.U_ID.push(user.U_ID);
    columns.E_ID.push(user.E_ID);
    columns.Phone.push(user.Phone);
    columns.UserName.push(user.UserName);
    columns.battery.push(user.battery);
    columns.signal.push(user.signal);
    columns.interval.push(user.interval);
  }
  return columns;
}

function usersOf(columns: UserColumns): UserFields[] {
  const lengths = new Set(Object.values(columns).map((column) => column.length));
  if (lengths.size > 1) throw new RangeError('The user columns of a GPS block differ in length.');
  return columns.U_ID.map((U_ID, index) => ({
    U_ID,
    E_ID: columns.E_ID[index] ?? 0,
    Phone: columns.Phone[index] ?? '',
    UserName: columns.UserName[index] ?? '',
    battery: columns.battery[index] ?? null,
    signal: columns.signal[index] ?? null,
    interval: columns.interval[index] ?? 0,
  }));
}

/**
 * One record of a user's slow fields and a fix, written field by field: a snapshot makes 50,000 of
 * them, and V8 took 10 µs a record to spread the two objects (470 ms for a snapshot, measured in Node)
 * against a fraction of one for a literal of one shape (18 ms; docs/benchmarks.md).
 */
export function gpsRecordOf(user: UserFields, fix: PositionFix): GpsRecord {
  return {
    U_ID: user.U_ID,
    E_ID: user.E_ID,
    Phone: user.Phone,
    UserName: user.UserName,
    lat: fix.lat,
    lon: fix.lon,
    time: fix.time,
    speed: fix.speed,
    course: fix.course,
    battery: user.battery,
    signal: user.signal,
    online: fix.online,
    talking: fix.talking,
    gpsOnline: fix.gpsOnline,
    interval: user.interval,
  };
}

/**
 * A client's side of GPS blocks: the slow fields of every user it was told, and the GpsRecords each
 * block makes of them, packed or not. A fix of a user it knows nothing of is left out (the server
 * sends the user's fields first). Throws PositionBlockError for a block version it does not know,
 * PackedGpsBlockError for a packed block that does not unpack, RangeError or a ZodError for a
 * malformed message.
 */
export class GpsBlockReader {
  private readonly users = new Map<number, UserFields>();

  read(data: unknown): { full: boolean; records: GpsRecord[] } {
    const message = blockDataOf(data);
    const columns = decodePositionBlock(message.block);
    if (message.full) this.users.clear();
    for (const user of usersOf(message.users)) this.users.set(user.U_ID, user);
    const records: GpsRecord[] = [];
    for (let index = 0; index < columns.count; index++) {
      const fix = fixAt(columns, index);
      const user = this.users.get(fix.U_ID);
      if (user) records.push(gpsRecordOf(user, fix));
    }
    return { full: message.full, records };
  }
}
