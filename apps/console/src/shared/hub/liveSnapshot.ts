import type {
  GpsRecord,
  HeartRate,
  Notification,
  OnlineUser,
  PushMsg,
  PushNotify,
  VideoSource,
} from '@intercom/contract';
import { NotificationStates } from '@intercom/contract';

/** Any argument of `pushMsg` or `pushNotify` (Notifys and Notify carry the same data in both). */
export type HubMessage = PushMsg | PushNotify;

/** Where the one hub connection stands; the banner shows while `reconnecting` or `disconnected`. */
export type HubStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'ended';

/**
 * What the hub has told this tab so far, for the caller's scope. Maps are keyed like the server's
 * deltas: positions and online users by U_ID, alarms by N_ID, heart rates by phone.
 */
export interface LiveData {
  /**
   * The latest record of every user with a position. Unlike the other maps, deltas change this
   * one in place: copying 50,000 entries for each of 4 bursts a second was the page's largest cost
   * (bench/map.ts). `positionsVersion` changes whenever it does; a snapshot brings a new map.
   */
  positions: ReadonlyMap<number, GpsRecord>;
  /** New (and greater) whenever `positions` changed; unique across the tab's lifetime. */
  positionsVersion: number;
  /**
   * The users whose record changed from `positionsChangedSince` to this version, or undefined when
   * any may have (a snapshot): what lets derived state be updated for the users that moved only.
   */
  positionsChanged: ReadonlySet<number> | undefined;
  positionsChangedSince: number;
  /** Users whose fix is fresh (`gpsOnline`), kept as positions change rather than counted per burst. */
  gpsOnlineCount: number;
  /** Chat-online users in scope; undefined until the first snapshot arrived. */
  onlineCount: number | undefined;
  onlineUsers: ReadonlyMap<number, OnlineUser>;
  /** Unhandled alarms (State `new`). */
  alarms: ReadonlyMap<number, Notification>;
  heartRates: ReadonlyMap<string, HeartRate>;
  /** The video list: terminals that can be watched now, by U_ID. */
  videos: ReadonlyMap<number, VideoSource>;
}

export interface LiveSnapshot extends LiveData {
  status: HubStatus;
}

/** The maps copied on first write in a burst (positions are changed in place, see LiveData). */
type MapKey = 'onlineUsers' | 'alarms' | 'heartRates' | 'videos';
const MAP_KEYS: readonly MapKey[] = ['onlineUsers', 'alarms', 'heartRates', 'videos'];

/** Versions of `positions`, increasing for the life of the tab (a reset must not reuse one). */
let lastPositionsVersion = 0;

/** A held value as a draft may change it: its map or set writable. */
type Writable<V> = V extends ReadonlyMap<infer K, infer T> ? Map<K, T> : V extends ReadonlySet<infer T> ? Set<T> : V;
type WritableData = { [K in keyof LiveData]: Writable<LiveData[K]> };

/**
 * The same data in maps that may be changed in place (the store's draft between bursts). A map
 * is shared with the published snapshot until a message writes to it (`owned` then names it).
 */
export interface LiveDraft extends WritableData {
  /** This burst has changed `positions` (its version is new). */
  positionsTouched: boolean;
  owned: Set<MapKey>;
}

export function emptyDraft(): LiveDraft {
  return {
    positions: new Map(),
    positionsVersion: ++lastPositionsVersion,
    positionsChanged: undefined,
    positionsChangedSince: 0,
    gpsOnlineCount: 0,
    positionsTouched: true,
    onlineCount: undefined,
    onlineUsers: new Map(),
    alarms: new Map(),
    heartRates: new Map(),
    videos: new Map(),
    owned: new Set(MAP_KEYS),
  };
}

/**
 * A draft over the published data, copying a map only when a message first writes to it: a burst
 * of positions leaves the alarms, online users and heart rates the same objects, so what reads only
 * those sees no change, and nothing copies maps no message touched (50,000 users, 4 bursts a second).
 */
export function draftOf(data: LiveData): LiveDraft {
  return {
    positions: data.positions as Map<number, GpsRecord>,
    positionsVersion: data.positionsVersion,
    positionsChanged: data.positionsChanged as Set<number> | undefined,
    positionsChangedSince: data.positionsChangedSince,
    gpsOnlineCount: data.gpsOnlineCount,
    positionsTouched: false,
    onlineCount: data.onlineCount,
    onlineUsers: data.onlineUsers as Map<number, OnlineUser>,
    alarms: data.alarms as Map<number, Notification>,
    heartRates: data.heartRates as Map<string, HeartRate>,
    videos: data.videos as Map<number, VideoSource>,
    owned: new Set(),
  };
}

/** The draft's data without its bookkeeping, to publish. */
export function dataOf(draft: LiveDraft): LiveData {
  const { owned: _owned, positionsTouched: _touched, ...data } = draft;
  return data;
}

/** The map `key` of the draft, copied first if it is still the published one (or emptied: `fresh`). */
function writable<K extends MapKey>(draft: LiveDraft, key: K, fresh = false): LiveDraft[K] {
  if (fresh || !draft.owned.has(key)) {
    (draft as Record<MapKey, unknown>)[key] = fresh ? new Map() : new Map(draft[key] as Map<unknown, unknown>);
    draft.owned.add(key);
  }
  return draft[key];
}

/** The draft's positions, to change in this burst: a new version, changes counted from the last. */
function touchPositions(draft: LiveDraft, fresh: boolean): Map<number, GpsRecord> {
  if (fresh) {
    draft.positions = new Map();
    draft.gpsOnlineCount = 0;
    draft.positionsChanged = undefined;
  } else if (!draft.positionsTouched) {
    draft.positionsChangedSince = draft.positionsVersion;
    draft.positionsChanged = new Set();
  }
  if (fresh || !draft.positionsTouched) draft.positionsVersion = ++lastPositionsVersion;
  draft.positionsTouched = true;
  return draft.positions;
}

function setPosition(draft: LiveDraft, positions: Map<number, GpsRecord>, record: GpsRecord): void {
  const previous = positions.get(record.U_ID);
  if (previous?.gpsOnline) draft.gpsOnlineCount--;
  if (record.gpsOnline) draft.gpsOnlineCount++;
  positions.set(record.U_ID, record);
  draft.positionsChanged?.add(record.U_ID);
}

function mergeOnline(target: Map<number, OnlineUser>, users: readonly OnlineUser[]): void {
  for (const user of users) {
    if (user.online) target.set(user.U_ID, user);
    else target.delete(user.U_ID);
  }
}

/** `Videos` (a snapshot: entries carry no `online`) and `Video` deltas (`online: false` removes). */
function mergeVideos(target: Map<number, VideoSource>, videos: readonly (VideoSource & { online?: boolean })[]): void {
  for (const { online, ...video } of videos) {
    if (online === false) target.delete(video.uid);
    else target.set(video.uid, video);
  }
}

function mergeAlarms(target: Map<number, Notification>, alarms: readonly Notification[]): void {
  for (const alarm of alarms) {
    if (alarm.State === NotificationStates.new) target.set(alarm.N_ID, alarm);
    else target.delete(alarm.N_ID);
  }
}

/**
 * Applies one message to the draft. Snapshot messages (GPSArray, Online, Notifys, Videos) replace what
 * they cover; GPSArray opens the `pushMsg` snapshot, so it also clears the online users and heart
 * rates its OnlineUser and HeartRate messages then fill again.
 */
export function applyHubMessage(draft: LiveDraft, message: HubMessage): void {
  switch (message.type) {
    case 'GPSArray': {
      writable(draft, 'onlineUsers', true);
      writable(draft, 'heartRates', true);
      const positions = touchPositions(draft, true);
      for (const record of message.data) setPosition(draft, positions, record);
      break;
    }
    case 'GPS': {
      const positions = touchPositions(draft, false);
      for (const record of message.data) setPosition(draft, positions, record);
      break;
    }
    case 'NumOnlineUser':
      draft.onlineCount = message.data;
      break;
    case 'OnlineUser':
      mergeOnline(writable(draft, 'onlineUsers'), message.data);
      break;
    case 'Online':
      draft.onlineCount = message.data.count;
      mergeOnline(writable(draft, 'onlineUsers', true), message.data.users);
      break;
    case 'OnlineChange':
      draft.onlineCount = message.data.count;
      mergeOnline(writable(draft, 'onlineUsers'), message.data.users);
      break;
    case 'Notifys':
      mergeAlarms(writable(draft, 'alarms', true), message.data);
      break;
    case 'Notify':
      mergeAlarms(writable(draft, 'alarms'), message.data);
      break;
    case 'HeartRate': {
      const heartRates = writable(draft, 'heartRates');
      for (const reading of message.data) heartRates.set(reading.Phone, reading);
      break;
    }
    case 'Videos':
      mergeVideos(writable(draft, 'videos', true), message.data);
      break;
    case 'Video':
      mergeVideos(writable(draft, 'videos'), message.data);
      break;
    case 'Incident':
      // Nothing held: the burst tells the incident screens to read their incidents again.
      break;
  }
}

/**
 * The held data as the snapshot messages a new subscription would get, so a subscriber that
 * arrives late handles exactly what an early one did (SPEC.md section 4, "Live connection").
 */
export function replayMessages(data: LiveData): HubMessage[] {
  if (data.onlineCount === undefined) return [];
  return [
    { type: 'GPSArray', data: [...data.positions.values()] },
    { type: 'NumOnlineUser', data: data.onlineCount },
    { type: 'OnlineUser', data: [...data.onlineUsers.values()] },
    { type: 'Notifys', data: [...data.alarms.values()] },
    { type: 'HeartRate', data: [...data.heartRates.values()] },
    { type: 'Videos', data: [...data.videos.values()] },
  ];
}
