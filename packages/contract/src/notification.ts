import { z } from 'zod';
import { formText } from './formFields.js';
import { idList } from './formFields.js';
import { MessageKeys } from './messages.js';

/**
 * Alarm records (`/api/Notification/*`, docs/api.md "Alarm records"). An alarm is `new` until
 * someone acknowledges it (they are on it) and then resolves it (it is over); `new` may also be
 * resolved at once. The hub's snapshot counts only `new` alarms as unhandled.
 */
export const NotifyStates = { new: 'new', acknowledged: 'acknowledged', resolved: 'resolved' } as const;
export type NotifyState = (typeof NotifyStates)[keyof typeof NotifyStates];

export const NotifyLimits = {
  commentMax: 512,
  /** Alarms one Acknowledge or Resolve call may name. */
  batchMax: 500,
  contentMax: 512,
  typeMax: 32,
} as const;

export const NotifyLogActions = {
  acknowledge: 'notify_acknowledge',
  resolve: 'notify_resolve',
} as const;

/**
 * Issue 51: an alarm's details the platform writes, as a console i18n key and its parameters, so each
 * reader sees them in their own language. `Content` keeps the same words in English (search, export,
 * older clients); alarms stored before, and texts a terminal sent, have no Detail and show `Content`.
 */
export const AlarmDetailKeys = {
  /** An SOS without words of its own. */
  sos: 'alarms.detail.sos',
  manDown: 'alarms.detail.man_down',
  /** `{ percent }` */
  battery: 'alarms.detail.battery',
  /** `{ value, low, high }` in bpm */
  heartRate: 'alarms.detail.heart_rate',
  /** `{ seconds }` */
  noHeartbeat: 'alarms.detail.no_heartbeat',
  flooding: 'alarms.detail.flooding',
  connectionLost: 'alarms.detail.connection_lost',
  /** `{ minutes }` since the check-in was due */
  checkInMissed: 'alarms.detail.check_in_missed',
  /** `{ meters, minutes }` */
  noMovement: 'alarms.detail.no_movement',
  /** `{ name, minutes }` */
  geofenceDwell: 'alarms.detail.geofence_dwell',
} as const;

export const AlarmDetailLimits = { keyMax: 64, paramsMax: 8, textMax: 128 } as const;

export const alarmDetailSchema = z.object({
  key: z.string().max(AlarmDetailLimits.keyMax),
  params: z.record(z.string().max(32), z.union([z.string().max(AlarmDetailLimits.textMax), z.number()])),
});
export type AlarmDetail = z.infer<typeof alarmDetailSchema>;

/** The stored column (`notification.Detail`, JSON) back; anything unreadable is no detail: `Content` shows. */
export function parseAlarmDetail(stored: string | null | undefined): AlarmDetail | null {
  if (!stored) return null;
  try {
    const parsed = alarmDetailSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One alarm with its user's name and who acknowledged and resolved it, when, and why. */
export const notifyRowSchema = z.object({
  N_ID: z.number().int(),
  E_ID: z.number().int(),
  U_ID: z.number().int().nullable(),
  UserName: z.string().nullable(),
  Phone: z.string(),
  NType: z.string(),
  Content: z.string(),
  Latitude: z.number().nullable(),
  Longitude: z.number().nullable(),
  State: z.string(),
  AckBy: z.number().int().nullable(),
  AckName: z.string(),
  AckAt: z.number().int().nullable(),
  AckComment: z.string(),
  HandledBy: z.number().int().nullable(),
  HandledName: z.string(),
  HandledAt: z.number().int().nullable(),
  Comment: z.string(),
  CreatedAt: z.number().int(),
  /** 1 once the alarm was raised again, escalated, because nobody acknowledged it (docs/safety.md). */
  Escalated: z.number().int(),
  /** The details in the reader's language (AlarmDetailKeys); null for alarms that have only `Content`. */
  Detail: alarmDetailSchema.nullable().optional(),
});
export type NotifyRow = z.infer<typeof notifyRowSchema>;

/** `POST /api/Notification/Acknowledge`: alarms `ids` (all `new`), with an optional comment. */
export const acknowledgeSchema = z.object({
  ids: idList(NotifyLimits.batchMax, MessageKeys.required),
  comment: formText(NotifyLimits.commentMax).optional().default(''),
});

/** `POST /api/Notification/Resolve`: alarms `ids` (new or acknowledged), with a comment (required). */
export const resolveSchema = z.object({
  ids: idList(NotifyLimits.batchMax, MessageKeys.required),
  comment: formText(NotifyLimits.commentMax, 1),
});

export const notifyChangeResultSchema = z.object({ changed: z.number().int(), rows: z.array(notifyRowSchema) });
