import {
  GPS_BLOCK_TYPE,
  encodePositionBlock,
  packGpsBlock,
  userColumnsOf,
  type GpsBlockData,
  type PackedGpsBlockData,
  type PositionFix,
  type UserFields,
} from '@intercom/contract';
import type { LiveUser } from '../bus/eventBus.js';
import type { LiveFix } from '../live/liveRecords.js';
import { ValueMessage } from './valueMessage.js';
import { nativeDeflate } from './nativeDeflate.js';

// What MessagePack connections get for positions: one `GPSBlock` per push (contract
// gpsBlockMessage.ts), fast fields in a binary position block, slow fields only when they changed.

export function positionFixOf({ user, gpsOnline }: LiveFix): PositionFix {
  const position = user.position;
  return {
    U_ID: user.U_ID,
    lat: position?.lat ?? 0,
    lon: position?.lon ?? 0,
    time: position?.time ?? 0,
    speed: position?.speed ?? null,
    course: position?.course ?? null,
    online: user.online,
    talking: user.talking,
    gpsOnline,
  };
}

export function userFieldsOf({ user }: LiveFix): UserFields {
  return {
    U_ID: user.U_ID,
    E_ID: user.E_ID,
    Phone: user.Phone,
    UserName: user.UserName,
    battery: user.battery,
    signal: user.signal,
    interval: user.position?.interval ?? 0,
  };
}

function sameSlowFields(a: LiveUser, b: LiveUser): boolean {
  return (
    a.E_ID === b.E_ID &&
    a.Phone === b.Phone &&
    a.UserName === b.UserName &&
    a.battery === b.battery &&
    a.signal === b.signal &&
    a.position?.interval === b.position?.interval
  );
}

/** The slow fields a scope's clients were last told, per user: a fix whose differ goes with its user's fields. */
export class SlowFieldWatch {
  private readonly told = new Map<number, LiveUser>();

  /** Whether the fix's slow fields differ from the last ones seen (it remembers these). */
  changed(fix: LiveFix): boolean {
    const previous = this.told.get(fix.user.U_ID);
    this.told.set(fix.user.U_ID, fix.user);
    return previous === undefined || !sameSlowFields(previous, fix.user);
  }

  /** A snapshot tells every user's fields. */
  seed(fixes: readonly LiveFix[]): void {
    for (const fix of fixes) this.told.set(fix.user.U_ID, fix.user);
  }
}

/** One `GPSBlock` message, built once and shared by the connections of a scope. */
export class GpsBlockMessage extends ValueMessage<GpsBlockData | PackedGpsBlockData> {
  private packedMessage: GpsBlockMessage | null = null;

  constructor(data: GpsBlockData | PackedGpsBlockData, size: number) {
    super(GPS_BLOCK_TYPE, data, size);
  }

  /** The block of `fixes`, with the slow fields of every fix (full) or of `slow` (a delta). */
  static of(fixes: Iterable<LiveFix>, slow: Iterable<LiveFix>, full: boolean): GpsBlockMessage {
    const list = [...fixes];
    const block = encodePositionBlock(list.map(positionFixOf));
    const users = userColumnsOf([...(full ? list : slow)].map(userFieldsOf));
    return new GpsBlockMessage({ full, block, users }, block.length + 32 * users.U_ID.length);
  }

  /**
   * This full block packed, for the connections that asked for packed snapshots (`FuncGPS` with
   * `{ packed: true }`): packed once, on first use, and shared as the block is.
   */
  packed(): GpsBlockMessage {
    const data = this.value.data;
    if ('packed' in data) return this;
    if (!this.packedMessage) {
      const packed = packGpsBlock(data, nativeDeflate);
      this.packedMessage = new GpsBlockMessage(packed, packed.packed.length);
    }
    return this.packedMessage;
  }
}
