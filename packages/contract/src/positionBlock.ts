/**
 * The binary position block (docs/realtime.md, "Position blocks"): the fast fields of many fixes in
 * columns, sent to MessagePack hub connections as one `bin` argument per push. Little-endian.
 *
 *   u8  version (1)
 *   u8  flags: bit 0 set = times are f64 epoch ms; clear = u32 ms after the base time
 *   u32 count n
 *   f64 base time, epoch ms (the oldest fix's time)
 *   u32[n] U_ID
 *   i32[n] lon, 1e-7 degrees
 *   i32[n] lat, 1e-7 degrees
 *   u32[n] time − base (flag clear) or f64[n] time (flag set)
 *   u16[n] speed, 0.1 km/h (0xFFFF: none)
 *   u16[n] course, 0.1 degrees (0xFFFF: none)
 *   u8[n]  state bits: 1 online, 2 talking, 4 gpsOnline
 *
 * Names, phones, battery, signal and the report interval are not in it: they travel in the
 * snapshot and when they change.
 */

export const POSITION_BLOCK_VERSION = 1;

/** The fast fields of one fix. */
export interface PositionFix {
  U_ID: number;
  lat: number;
  lon: number;
  /** Epoch ms. */
  time: number;
  /** km/h. */
  speed: number | null;
  /** Degrees clockwise from north. */
  course: number | null;
  online: boolean;
  talking: boolean;
  gpsOnline: boolean;
}

export const PositionState = { online: 1, talking: 2, gpsOnline: 4 } as const;

const HEADER_BYTES = 14;
const NONE_U16 = 0xffff;
const ABSOLUTE_TIMES = 1;
const MAX_DELTA = 0xffffffff;

export class PositionBlockError extends Error {
  override name = 'PositionBlockError';
}

/** A block of a version this decoder does not read: the client should fall back to JSON. */
export class PositionBlockVersionError extends PositionBlockError {
  override name = 'PositionBlockVersionError';

  constructor(readonly version: number) {
    super(`Position block version ${version} is not known; this decoder reads version ${POSITION_BLOCK_VERSION}.`);
  }
}

/** Bytes per fix of a block: U_ID, lon, lat, time, speed, course, state. */
function bytesPerFix(absoluteTimes: boolean): number {
  return 4 + 4 + 4 + (absoluteTimes ? 8 : 4) + 2 + 2 + 1;
}

const degrees7 = (value: number) => Math.round(value * 1e7);

function tenths(value: number | null, max: number): number {
  if (value === null || !Number.isFinite(value)) return NONE_U16;
  return Math.min(max, Math.max(0, Math.round(value * 10)));
}

function stateOf(fix: PositionFix): number {
  return (
    (fix.online ? PositionState.online : 0) |
    (fix.talking ? PositionState.talking : 0) |
    (fix.gpsOnline ? PositionState.gpsOnline : 0)
  );
}

function timeSpan(fixes: readonly PositionFix[]): { base: number; absolute: boolean } {
  let base = Infinity;
  let newest = -Infinity;
  for (const fix of fixes) {
    if (fix.time < base) base = fix.time;
    if (fix.time > newest) newest = fix.time;
  }
  if (fixes.length === 0) return { base: 0, absolute: false };
  const integral = fixes.every((fix) => Number.isInteger(fix.time));
  return { base, absolute: !integral || newest - base > MAX_DELTA };
}

export function encodePositionBlock(fixes: readonly PositionFix[]): Uint8Array {
  const n = fixes.length;
  const { base, absolute } = timeSpan(fixes);
  const bytes = new Uint8Array(HEADER_BYTES + n * bytesPerFix(absolute));
  const view = new DataView(bytes.buffer);
  view.setUint8(0, POSITION_BLOCK_VERSION);
  view.setUint8(1, absolute ? ABSOLUTE_TIMES : 0);
  view.setUint32(2, n, true);
  view.setFloat64(6, base, true);
  let at = HEADER_BYTES;
  const column = (size: number, write: (offset: number, fix: PositionFix) => void) => {
    for (const fix of fixes) {
      write(at, fix);
      at += size;
    }
  };
  column(4, (o, fix) => view.setUint32(o, fix.U_ID, true));
  column(4, (o, fix) => view.setInt32(o, degrees7(fix.lon), true));
  column(4, (o, fix) => view.setInt32(o, degrees7(fix.lat), true));
  if (absolute) column(8, (o, fix) => view.setFloat64(o, fix.time, true));
  else column(4, (o, fix) => view.setUint32(o, fix.time - base, true));
  column(2, (o, fix) => view.setUint16(o, tenths(fix.speed, NONE_U16 - 1), true));
  column(2, (o, fix) => view.setUint16(o, tenths(fix.course, 3600), true));
  column(1, (o, fix) => view.setUint8(o, stateOf(fix)));
  return bytes;
}

/** The columns of a decoded block; `fixAt` makes one fix of them. */
export interface PositionColumns {
  count: number;
  ids: Uint32Array;
  /** Degrees. */
  lons: Float64Array;
  lats: Float64Array;
  /** Epoch ms. */
  times: Float64Array;
  /** km/h; NaN: none. */
  speeds: Float64Array;
  /** Degrees; NaN: none. */
  courses: Float64Array;
  states: Uint8Array;
}

export function decodePositionBlock(bytes: Uint8Array): PositionColumns {
  if (bytes.length < HEADER_BYTES) throw new PositionBlockError('The position block is shorter than its header.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== POSITION_BLOCK_VERSION) throw new PositionBlockVersionError(version);
  const absolute = (view.getUint8(1) & ABSOLUTE_TIMES) !== 0;
  const count = view.getUint32(2, true);
  const base = view.getFloat64(6, true);
  if (bytes.length !== HEADER_BYTES + count * bytesPerFix(absolute)) {
    throw new PositionBlockError(`The position block's length does not match its ${count} fixes.`);
  }
  let at = HEADER_BYTES;
  const read = <T extends { [index: number]: number }>(into: T, size: number, get: (offset: number) => number): T => {
    for (let index = 0; index < count; index++, at += size) into[index] = get(at);
    return into;
  };
  const optionalTenths = (raw: number) => (raw === NONE_U16 ? NaN : raw / 10);
  return {
    count,
    ids: read(new Uint32Array(count), 4, (o) => view.getUint32(o, true)),
    lons: read(new Float64Array(count), 4, (o) => view.getInt32(o, true) / 1e7),
    lats: read(new Float64Array(count), 4, (o) => view.getInt32(o, true) / 1e7),
    times: absolute
      ? read(new Float64Array(count), 8, (o) => view.getFloat64(o, true))
      : read(new Float64Array(count), 4, (o) => base + view.getUint32(o, true)),
    speeds: read(new Float64Array(count), 2, (o) => optionalTenths(view.getUint16(o, true))),
    courses: read(new Float64Array(count), 2, (o) => optionalTenths(view.getUint16(o, true))),
    states: read(new Uint8Array(count), 1, (o) => view.getUint8(o)),
  };
}

/** Fix `index` of decoded columns. */
export function fixAt(columns: PositionColumns, index: number): PositionFix {
  const speed = columns.speeds[index] ?? NaN;
  const course = columns.courses[index] ?? NaN;
  const state = columns.states[index] ?? 0;
  return {
    U_ID: columns.ids[index] ?? 0,
    lat: columns.lats[index] ?? 0,
    lon: columns.lons[index] ?? 0,
    time: columns.times[index] ?? 0,
    speed: Number.isNaN(speed) ? null : speed,
    course: Number.isNaN(course) ? null : course,
    online: (state & PositionState.online) !== 0,
    talking: (state & PositionState.talking) !== 0,
    gpsOnline: (state & PositionState.gpsOnline) !== 0,
  };
}
