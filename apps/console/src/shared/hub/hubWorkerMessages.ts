import type { GpsRecord, HeartRate, Notification } from '@intercom/contract';
import type { UserBatch } from './userFeed/userBatch';
import type { HubStatus } from './liveSnapshot';
import type { SessionCheck } from './HubController';

/** A user found by the hub worker's search (the fields a result line shows). */
export interface FoundUser {
  U_ID: number;
  UserName: string;
  Phone: string;
}

/** West-south and east-north corners. */
export type Bounds = [[number, number], [number, number]];

/**
 * Users' states that changed since the last view, as codes of `USER_MAP_STATES` (`replace`: these
 * are all of them). Typed arrays: 50,000 states of a snapshot cross without a structured clone of objects.
 */
export interface StateChanges {
  replace: boolean;
  ids: Float64Array;
  codes: Uint8Array;
}

/** A watched user's latest record and heart rate (null: the hub has none). */
export interface WatchedUser {
  record: GpsRecord | null;
  heartRate: HeartRate | null;
}

/**
 * What changed in the hub's state since the last view sent (each field only when it changed), and
 * the burst's events: the online delta of its `OnlineChange`s, whether an alarm was pushed.
 */
export interface LiveViewChanges {
  status?: HubStatus;
  onlineCount?: number | undefined;
  gpsOnlineCount?: number;
  /** All unhandled alarms (a short list: State `new` only). */
  alarms?: Notification[];
  states?: StateChanges;
  watched?: [number, WatchedUser][];
  onlineDelta: number;
  alarmPushed: boolean;
  /** An `Incident` push came: an incident of the scope opened, closed or changed members. */
  incidentChanged?: true;
}

/** What the page tells the hub worker (hub.worker.ts). `id` pairs a reply with its request. */
export type HubWorkerCommand =
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'restart' }
  | { type: 'watch'; ids: number[] }
  | { type: 'search'; id: number; text: string; max: number }
  | { type: 'token'; id: number; token: string }
  | { type: 'session'; id: number; check: SessionCheck }
  | { type: 'feedOpen'; feed: number; gcj02: boolean; port: MessagePort }
  | { type: 'feedDrawn'; feed: number; batch: number }
  | { type: 'feedClose'; feed: number };

/** What the hub worker tells the page. */
export type HubWorkerEvent =
  | { type: 'view'; changes: LiveViewChanges }
  | { type: 'found'; id: number; users: FoundUser[] }
  | { type: 'token'; id: number }
  | { type: 'session'; id: number; reason: string }
  | { type: 'resync' };

/**
 * A map's batch of users, which the hub worker posts on the map's feed port straight to the map's
 * tile worker (the page's main thread never carries it). `batch` numbers it for `feedDrawn`;
 * `bounds` comes with a snapshot; `sentAt` is when it was posted (ms since the epoch).
 */
export interface FeedBatch {
  batch: number;
  users: UserBatch;
  bounds: Bounds | undefined;
  sentAt: number;
}
