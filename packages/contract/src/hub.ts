import { z } from 'zod';
import { Code } from './codes.js';
import { incidentPushSchema } from './incident.js';
import { alarmDetailSchema } from './notification.js';
import { videoChangeSchema, videoSourceSchema } from './video.js';

/**
 * Messages of the real-time hub `/FuncService` (DESIGN.md section 6, docs/realtime.md). The hub
 * speaks SignalR's JSON protocol; these are the arguments of its invocations.
 */
export const HUB_PATH = '/FuncService';

/** Methods a client may invoke, send or stream. Names match case-insensitively, as in SignalR. */
export const HubMethods = {
  /** Subscribe to positions, online users, alarms and heart rate of the caller's scope (`pushMsg`). */
  FuncGPS: 'FuncGPS',
  /** Subscribe to online counts and alarms of the caller's scope (`pushNotify`). */
  FuncNotify: 'FuncNotify',
  /** End a subscription: `Unsubscribe('FuncGPS')` or `Unsubscribe('FuncNotify')`. */
  Unsubscribe: 'Unsubscribe',
} as const;
export type HubFeed = typeof HubMethods.FuncGPS | typeof HubMethods.FuncNotify;

/** Client methods the server invokes (no invocation id, no reply). */
export const HubTargets = { pushMsg: 'pushMsg', pushNotify: 'pushNotify' } as const;

const id = z.number().int();
const epochMs = z.number().int().nonnegative();

/** The latest fix and status of one terminal user, keyed by U_ID. */
export const gpsRecordSchema = z.object({
  U_ID: id,
  E_ID: id,
  Phone: z.string(),
  UserName: z.string(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  /** Time of the fix, epoch ms. */
  time: epochMs,
  /** km/h. */
  speed: z.number().nullable(),
  /** Degrees clockwise from north. */
  course: z.number().nullable(),
  /** Percent. */
  battery: z.number().min(0).max(100).nullable(),
  /** Percent of full strength. */
  signal: z.number().min(0).max(100).nullable(),
  /** Chat-online: connected to the talk side. */
  online: z.boolean(),
  /** Holds the floor in a channel. */
  talking: z.boolean(),
  /** GPS-online: the fix is newer than 1.5 times `interval` (`isGpsOnline`); the hub pushes the change. */
  gpsOnline: z.boolean(),
  /** The user's report interval, seconds. */
  interval: z.number().int(),
});
export type GpsRecord = z.infer<typeof gpsRecordSchema>;

const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
const isNullableNumber = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));
const isNullablePercent = (value: unknown) =>
  value === null || (typeof value === 'number' && value >= 0 && value <= 100);

/**
 * The same test as `gpsRecordSchema.safeParse(value).success`, written out: a console with 50,000
 * users moving takes 50,000 records a second, and zod took as long as `JSON.parse` of them.
 * contract/test/gpsRecordGuard.test.ts checks that both agree.
 */
export function isGpsRecord(value: unknown): value is GpsRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    isInt(r.U_ID) &&
    isInt(r.E_ID) &&
    typeof r.Phone === 'string' &&
    typeof r.UserName === 'string' &&
    typeof r.lat === 'number' &&
    r.lat >= -90 &&
    r.lat <= 90 &&
    typeof r.lon === 'number' &&
    r.lon >= -180 &&
    r.lon <= 180 &&
    isInt(r.time) &&
    r.time >= 0 &&
    isNullableNumber(r.speed) &&
    isNullableNumber(r.course) &&
    isNullablePercent(r.battery) &&
    isNullablePercent(r.signal) &&
    typeof r.online === 'boolean' &&
    typeof r.talking === 'boolean' &&
    typeof r.gpsOnline === 'boolean' &&
    isInt(r.interval)
  );
}

/** A user whose chat-online state is (or changed to) `online`. */
export const onlineUserSchema = z.object({
  U_ID: id,
  E_ID: id,
  Phone: z.string(),
  UserName: z.string(),
  online: z.boolean(),
  /** When the state was reported, epoch ms. */
  time: epochMs,
});
export type OnlineUser = z.infer<typeof onlineUserSchema>;

/** Alarm kinds the platform raises itself; other modules may add more. */
export const NotificationTypes = {
  sos: 'SOS',
  lowBattery: 'LowBattery',
  offline: 'Offline',
  heartRate: 'HeartRate',
} as const;

/** `new` is unhandled: it is part of every snapshot until handled. */
export const NotificationStates = { new: 'new', handled: 'handled' } as const;

/** An alarm, keyed by N_ID and shown by Phone; the fields of the notification table. */
export const notificationSchema = z.object({
  N_ID: id,
  E_ID: id,
  U_ID: id.nullable(),
  Phone: z.string(),
  NType: z.string().max(32),
  Content: z.string().max(512),
  Latitude: z.number().nullable(),
  Longitude: z.number().nullable(),
  State: z.string().max(16),
  CreatedAt: epochMs,
  /** True when raised again because nobody acknowledged it in time (docs/safety.md "Escalation"). */
  Escalated: z.boolean().optional(),
  /** The details as a key and parameters (notification.ts AlarmDetailKeys); absent: only `Content`. */
  Detail: alarmDetailSchema.optional(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** A heart-rate reading, keyed by phone. */
export const heartRateSchema = z.object({
  E_ID: id,
  U_ID: id,
  Phone: z.string(),
  /** Beats per minute. */
  Value: z.number().int(),
  H_Time: epochMs,
});
export type HeartRate = z.infer<typeof heartRateSchema>;

/**
 * `pushMsg` argument. A subscription's snapshot is GPSArray, NumOnlineUser, OnlineUser, Notifys,
 * HeartRate and Videos; later messages are deltas. Delta lists hold the latest entry per key since the last push.
 */
export const pushMsgSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('GPSArray'), data: z.array(gpsRecordSchema) }),
  z.object({ type: z.literal('GPS'), data: z.array(gpsRecordSchema) }),
  z.object({ type: z.literal('NumOnlineUser'), data: z.number().int().nonnegative() }),
  z.object({ type: z.literal('OnlineUser'), data: z.array(onlineUserSchema) }),
  z.object({ type: z.literal('Notifys'), data: z.array(notificationSchema) }),
  z.object({ type: z.literal('Notify'), data: z.array(notificationSchema) }),
  z.object({ type: z.literal('HeartRate'), data: z.array(heartRateSchema) }),
  /** The video list: terminals of the scope that can be watched now (snapshot). */
  z.object({ type: z.literal('Videos'), data: z.array(videoSourceSchema) }),
  /** Video online/offline since the last push (delta). */
  z.object({ type: z.literal('Video'), data: z.array(videoChangeSchema) }),
  /** Incidents of the scope opened, closed or with members joined or left since the last push (delta). */
  z.object({ type: z.literal('Incident'), data: z.array(incidentPushSchema) }),
]);
export type PushMsg = z.infer<typeof pushMsgSchema>;
export const onlineSummarySchema = z.object({
  /** Chat-online users in scope. */
  count: z.number().int().nonnegative(),
  users: z.array(onlineUserSchema),
});

export const onlineChangeSchema = z.object({
  count: z.number().int().nonnegative(),
  /** Change of `count` since the previous Online or OnlineChange message. */
  delta: z.number().int(),
  /** Users whose state changed; `online` tells which way. */
  users: z.array(onlineUserSchema),
});

/** `pushNotify` argument: snapshot Online and Notifys, then OnlineChange and Notify deltas. */
export const pushNotifySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Online'), data: onlineSummarySchema }),
  z.object({ type: z.literal('OnlineChange'), data: onlineChangeSchema }),
  z.object({ type: z.literal('Notifys'), data: z.array(notificationSchema) }),
  z.object({ type: z.literal('Notify'), data: z.array(notificationSchema) }),
]);
export type PushNotify = z.infer<typeof pushNotifySchema>;
/** What `invoke('FuncGPS')` and `invoke('FuncNotify')` return. */
export const hubSubscribeResultSchema = z.object({
  feed: z.enum([HubMethods.FuncGPS, HubMethods.FuncNotify]),
  /** Enterprises whose data this subscription receives: the caller's and its descendants. */
  enterprises: z.array(id),
});
export type HubSubscribeResult = z.infer<typeof hubSubscribeResultSchema>;

/**
 * Error texts of a server Close message. The client reports them as
 * `Server returned an error on close: <text>`; the code in brackets is the API code a REST call
 * with the same token would now get, so the console can show its re-login dialog.
 */
export const HubCloseErrors = {
  sessionEnded: `Session ended (${Code.SessionEnded})`,
  sessionReplaced: `Logged in elsewhere (${Code.SessionReplaced})`,
  tokenExpired: `Token expired (${Code.TokenExpired})`,
  /** Sent with allowReconnect: the client reconnects to another instance or after the restart. */
  serverRestarting: 'Server restarting',
  protocolError: 'Invalid message',
  overloaded: 'Too many unanswered invocations',
} as const;

/** The API code inside a close error text, if it carries one. */
export function hubCloseCode(message: string): number | undefined {
  const match = /\((\d{4,5})\)/.exec(message);
  return match ? Number(match[1]) : undefined;
}
