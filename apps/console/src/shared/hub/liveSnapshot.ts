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
  positions: ReadonlyMap<number, GpsRecord>;
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

/** The same data in maps that may be changed in place (the store's draft between renders). */
export interface LiveDraft {
  positions: Map<number, GpsRecord>;
  onlineCount: number | undefined;
  onlineUsers: Map<number, OnlineUser>;
  alarms: Map<number, Notification>;
  heartRates: Map<string, HeartRate>;
  videos: Map<number, VideoSource>;
}

export function emptyDraft(): LiveDraft {
  return {
    positions: new Map(),
    onlineCount: undefined,
    onlineUsers: new Map(),
    alarms: new Map(),
    heartRates: new Map(),
    videos: new Map(),
  };
}

/** A copy whose maps may be changed without touching what React holds. */
export function draftOf(data: LiveData): LiveDraft {
  return {
    positions: new Map(data.positions),
    onlineCount: data.onlineCount,
    onlineUsers: new Map(data.onlineUsers),
    alarms: new Map(data.alarms),
    heartRates: new Map(data.heartRates),
    videos: new Map(data.videos),
  };
}

function mergeOnline(target: Map<number, OnlineUser>, users: readonly OnlineUser[]): void {
  for (const user of users) {
    if (user.online) target.set(user.U_ID, user);
    else target.delete(user.U_ID);
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
    case 'GPSArray':
      draft.positions.clear();
      draft.onlineUsers.clear();
      draft.heartRates.clear();
      for (const record of message.data) draft.positions.set(record.U_ID, record);
      break;
    case 'GPS':
      for (const record of message.data) draft.positions.set(record.U_ID, record);
      break;
    case 'NumOnlineUser':
      draft.onlineCount = message.data;
      break;
    case 'OnlineUser':
      mergeOnline(draft.onlineUsers, message.data);
      break;
    case 'Online':
      draft.onlineCount = message.data.count;
      draft.onlineUsers.clear();
      mergeOnline(draft.onlineUsers, message.data.users);
      break;
    case 'OnlineChange':
      draft.onlineCount = message.data.count;
      mergeOnline(draft.onlineUsers, message.data.users);
      break;
    case 'Notifys':
      draft.alarms.clear();
      mergeAlarms(draft.alarms, message.data);
      break;
    case 'Notify':
      mergeAlarms(draft.alarms, message.data);
      break;
    case 'HeartRate':
      for (const reading of message.data) draft.heartRates.set(reading.Phone, reading);
      break;
    case 'Videos':
      draft.videos.clear();
      for (const video of message.data) draft.videos.set(video.uid, video);
      break;
    case 'Video':
      for (const { online, ...video } of message.data) {
        if (online) draft.videos.set(video.uid, video);
        else draft.videos.delete(video.uid);
      }
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
