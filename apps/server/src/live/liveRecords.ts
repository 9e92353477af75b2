import type { GpsRecord, OnlineUser } from '@intercom/contract';
import type { LiveUser } from '../bus/eventBus.js';

// What LiveState takes in (reports) and gives out (changes, snapshots), and the JSON texts of its
// records, each written once per change for every connection that receives it.

export interface UserRef {
  E_ID: number;
  U_ID: number;
  Phone?: string;
  UserName?: string;
}

export interface PositionReport extends UserRef {
  lat: number;
  lon: number;
  /** Time of the fix, epoch ms. */
  time: number;
  speed?: number | null;
  course?: number | null;
  /** The user's report interval in force, seconds (GPS-online); the default profile's when left out. */
  interval?: number;
}

export interface StatusReport extends UserRef {
  battery?: number | null;
  signal?: number | null;
  talking?: boolean;
}

/** A user with a fix, and whether the fix is GPS-online: what a MessagePack push encodes (hub/gpsBlocks.ts). */
export interface LiveFix {
  user: LiveUser;
  gpsOnline: boolean;
}

/**
 * One change, already serialised once for every connection that receives it, but for fixes: 50,000
 * a second, most of them for MessagePack connections, which never read a fix's text; JSON
 * connections' pushes write it (`gpsJsonOfFix`) once per push. `key` identifies the entry inside its
 * kind (U_ID, N_ID or phone), so later changes of the same key replace earlier ones.
 */
export type LiveChange =
  | { kind: 'gps'; E_ID: number; key: number; fix: LiveFix }
  | { kind: 'online'; E_ID: number; key: number; json: string }
  | { kind: 'notification'; E_ID: number; key: number; json: string }
  | { kind: 'heartRate'; E_ID: number; key: string; json: string }
  | { kind: 'video'; E_ID: number; key: number; json: string }
  /** An incident of the enterprise opened, closed or changed members (key IN_ID; an IncidentPush text). */
  | { kind: 'incident'; E_ID: number; key: number; json: string };

/** The current state of some enterprises, mostly as JSON texts: what a new subscription receives first. */
export interface LiveSnapshot {
  /** Every user with a fix (their GpsRecord texts: `gpsJsonOfFix`). */
  fixes: LiveFix[];
  /** Users currently chat-online. */
  online: string[];
  /** The same users as `online`, in the same order, as values (packed snapshots: hub/scopeFeed.ts). */
  onlineUsers: OnlineUser[];
  notifications: string[];
  heartRates: string[];
  /** The video list: VideoSource texts of terminals that can be watched now. */
  videos: string[];
}

/** A number as JSON writes it: `null` for NaN and the infinities, which JSON cannot hold. */
const jsonNumber = (value: number | null) => (value !== null && Number.isFinite(value) ? String(value) : 'null');

/**
 * `JSON.stringify(record)` of a GpsRecord, written by hand: every fix of every user is turned into
 * text once, and at 50,000 fixes a second the generic stringify was a third of the ingest's CPU
 * (docs/benchmarks.md). Same keys in the same order (clients slice the hub's records on `{"U_ID":`).
 */
export function gpsJsonOf(record: GpsRecord): string {
  return gpsJsonFrom(record, record, record.gpsOnline);
}

type GpsUserFields = Pick<
  GpsRecord,
  'U_ID' | 'E_ID' | 'Phone' | 'UserName' | 'battery' | 'signal' | 'online' | 'talking'
>;
type GpsFixFields = Pick<GpsRecord, 'lat' | 'lon' | 'time' | 'speed' | 'course' | 'interval'>;

/** The GpsRecord text of a fix LiveState holds or hands out (its user has a position). */
export function gpsJsonOfFix({ user, gpsOnline }: LiveFix): string {
  return gpsJsonFrom(user, user.position!, gpsOnline);
}

/**
 * Whether two fixes of a user have the same GpsRecord (what `gpsJsonFrom` writes), compared field by
 * field instead of as texts: LiveState asks it for each of 50,000 moves a second.
 */
export function sameGpsRecord(a: LiveUser, aGpsOnline: boolean, b: LiveUser, bGpsOnline: boolean): boolean {
  const p = a.position;
  const q = b.position;
  if (!p || !q) return p === q;
  return (
    aGpsOnline === bGpsOnline &&
    sameNumber(p.lat, q.lat) &&
    sameNumber(p.lon, q.lon) &&
    sameNumber(p.time, q.time) &&
    sameNumber(p.speed, q.speed) &&
    sameNumber(p.course, q.course) &&
    sameNumber(p.interval, q.interval) &&
    sameNumber(a.battery, b.battery) &&
    sameNumber(a.signal, b.signal) &&
    a.online === b.online &&
    a.talking === b.talking &&
    a.U_ID === b.U_ID &&
    a.E_ID === b.E_ID &&
    a.Phone === b.Phone &&
    a.UserName === b.UserName
  );
}

/** Two numbers JSON writes the same (`jsonNumber`): equal, or both not finite (both `null`). */
function sameNumber(a: number | null, b: number | null): boolean {
  return a === b || (!isFiniteNumber(a) && !isFiniteNumber(b));
}

const isFiniteNumber = (value: number | null) => value !== null && Number.isFinite(value);

/** The GpsRecord text of a user and its fix, without making the record first. */
export function gpsJsonFrom(user: GpsUserFields, fix: GpsFixFields, gpsOnline: boolean): string {
  return (
    `{"U_ID":${user.U_ID},"E_ID":${user.E_ID},"Phone":${JSON.stringify(user.Phone)},` +
    `"UserName":${JSON.stringify(user.UserName)},"lat":${jsonNumber(fix.lat)},"lon":${jsonNumber(fix.lon)},` +
    `"time":${jsonNumber(fix.time)},"speed":${jsonNumber(fix.speed)},"course":${jsonNumber(fix.course)},` +
    `"battery":${jsonNumber(user.battery)},"signal":${jsonNumber(user.signal)},"online":${user.online},` +
    `"talking":${user.talking},"gpsOnline":${gpsOnline},"interval":${jsonNumber(fix.interval)}}`
  );
}

export function onlineUserOf(user: LiveUser): OnlineUser {
  return {
    U_ID: user.U_ID,
    E_ID: user.E_ID,
    Phone: user.Phone,
    UserName: user.UserName,
    online: user.online,
    time: user.onlineAt,
  };
}
