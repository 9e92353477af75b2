import { decode, encode } from '@msgpack/msgpack';
import { inflateSync } from 'fflate';
import { z } from 'zod';
import { binary } from './gpsBlockMessage.js';
import { onlineUserSchema, type OnlineUser } from './hub.js';
import { fflateDeflate, type RawDeflate } from './rawDeflate.js';

/**
 * `{ type: 'OnlineBlock', data: { count, packed } }` — what a packed subscription on a MessagePack
 * connection gets instead of a snapshot's list of online users: `OnlineUser` (`pushMsg`, FuncGPS) and
 * `Online` (`pushNotify`, FuncNotify, which `count` completes). `packed` is the raw DEFLATE (RFC 1951)
 * of the MessagePack encoding of the users as columns `{ U_ID, E_ID, Phone, UserName, time }`; every
 * user of the list is online. At 50,000 users the plain list is 4 MB of MessagePack maps, which the
 * console's hub worker decoded string by string while the map opened. docs/realtime.md, "Packed snapshots".
 */
export const ONLINE_BLOCK_TYPE = 'OnlineBlock';

export const onlineBlockDataSchema = z.object({ count: z.number().int().nonnegative(), packed: binary('packed') });
export type OnlineBlockData = z.infer<typeof onlineBlockDataSchema>;

// Each column holds the field of onlineUserSchema: a block is checked as the plain list is.
const field = onlineUserSchema.shape;
const onlineColumnsSchema = z.object({
  U_ID: z.array(field.U_ID),
  E_ID: z.array(field.E_ID),
  Phone: z.array(field.Phone),
  UserName: z.array(field.UserName),
  time: z.array(field.time),
});

/** An OnlineBlock that cannot be read: not DEFLATE, not MessagePack, or not columns of one length. */
export class PackedOnlineBlockError extends Error {
  override name = 'PackedOnlineBlockError';
}

/** The online users `users` (of `count` online in all) as an OnlineBlock's data, packed by `deflate`. */
export function packOnlineUsers(
  users: readonly OnlineUser[],
  count: number,
  deflate: RawDeflate = fflateDeflate,
): OnlineBlockData {
  const columns = {
    U_ID: users.map((user) => user.U_ID),
    E_ID: users.map((user) => user.E_ID),
    Phone: users.map((user) => user.Phone),
    UserName: users.map((user) => user.UserName),
    time: users.map((user) => user.time),
  };
  return { count, packed: deflate(encode(columns)) };
}

/** The online users an OnlineBlock's data holds (PackedOnlineBlockError when it cannot be read). */
export function unpackOnlineUsers(data: unknown): { count: number; users: OnlineUser[] } {
  const block = onlineBlockDataSchema.safeParse(data);
  if (!block.success) throw new PackedOnlineBlockError('An OnlineBlock holds { count, packed }.');
  let inner: unknown;
  try {
    inner = decode(inflateSync(block.data.packed));
  } catch (error) {
    throw new PackedOnlineBlockError(`The OnlineBlock cannot be unpacked: ${(error as Error).message}`);
  }
  const columns = onlineColumnsSchema.safeParse(inner);
  if (!columns.success) throw new PackedOnlineBlockError('The OnlineBlock does not hold the users as columns.');
  const { U_ID, E_ID, Phone, UserName, time } = columns.data;
  const length = U_ID.length;
  if ([E_ID, Phone, UserName, time].some((column) => column.length !== length)) {
    throw new PackedOnlineBlockError('The columns of an OnlineBlock differ in length.');
  }
  const users: OnlineUser[] = [];
  for (let i = 0; i < length; i++) {
    users.push({
      U_ID: U_ID[i]!,
      E_ID: E_ID[i]!,
      Phone: Phone[i]!,
      UserName: UserName[i]!,
      online: true,
      time: time[i]!,
    });
  }
  return { count: block.data.count, users };
}
