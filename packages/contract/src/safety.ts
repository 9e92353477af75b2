import { z } from 'zod';
import { idList, jsonId } from './formFields.js';
import { MessageKeys } from './messages.js';

/**
 * Lone worker, no movement and man down (docs/safety.md). Settings apply to users and departments
 * (a department includes its sub-departments); with neither they apply to the whole enterprise. The
 * settings in force for a user are the most specific: the user's own, then the nearest department's,
 * then the enterprise's.
 */
export const SafetyLimits = {
  checkInMax: 720,
  graceMin: 1,
  graceMax: 60,
  /** The grace of a user with nothing set (every check off). */
  graceDefault: 5,
  noMovementMax: 720,
  noMovementMetersMin: 5,
  noMovementMetersMax: 500,
  noMovementMetersDefault: 10,
  targetsMax: 1000,
} as const;

/** Minutes an unacknowledged safety alarm waits before it is raised again, escalated (env SAFETY_ESCALATE_MINUTES). */
export const SAFETY_ESCALATE_MINUTES = 5;

/** Alarm `NType`s of the safety watch (the alarm records of `/api/Notification/*`). */
export const SafetyAlarmTypes = {
  loneWorker: 'LoneWorker',
  noMovement: 'NoMovement',
  manDown: 'ManDown',
} as const;

/** Alarm types that are raised again, escalated, while nobody acknowledges them (with SOS). */
export const ESCALATING_ALARM_TYPES = ['SOS', 'LoneWorker', 'NoMovement', 'ManDown'] as const;

/** Alarm types treated like SOS: sound, banner, top of the list. */
export const URGENT_ALARM_TYPES = ['SOS', 'ManDown'] as const;

export const SafetyLogActions = { settings: 'safety_settings', delete: 'safety_settings_delete' } as const;

const keyed = (key: string) => ({ error: key });
const minutes = (min: number, max: number) =>
  z
    .number(keyed(MessageKeys.notNumber))
    .int(keyed(MessageKeys.notNumber))
    .min(min, keyed(MessageKeys.outOfRange))
    .max(max, keyed(MessageKeys.outOfRange));

/** `POST /api/Safety/Settings` (JSON). CheckInMinutes 0 and NoMovementMinutes 0 switch the checks off. */
export const safetySettingsSaveSchema = z.object({
  /** The enterprise whose users, departments or whole staff these are (default: the caller's). */
  E_ID: jsonId().optional(),
  UserIds: idList(SafetyLimits.targetsMax).optional(),
  DepartmentIds: idList(SafetyLimits.targetsMax).optional(),
  CheckInMinutes: minutes(0, SafetyLimits.checkInMax),
  GraceMinutes: minutes(SafetyLimits.graceMin, SafetyLimits.graceMax),
  NoMovementMinutes: minutes(0, SafetyLimits.noMovementMax),
  NoMovementMeters: minutes(SafetyLimits.noMovementMetersMin, SafetyLimits.noMovementMetersMax).default(
    SafetyLimits.noMovementMetersDefault,
  ),
});
export type SafetySettingsSave = z.infer<typeof safetySettingsSaveSchema>;

/** `GET /api/Safety/Settings?U_ID=`: the settings in force for a user and where they come from. */
export const safetySettingsQuerySchema = z.object({
  U_ID: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

export const safetySettingsSchema = z.object({
  U_ID: z.number().int(),
  CheckInMinutes: z.number().int(),
  GraceMinutes: z.number().int(),
  NoMovementMinutes: z.number().int(),
  NoMovementMeters: z.number().int(),
  /** `user`, `department`, `enterprise`, or `none` (nothing set: every check off). */
  Source: z.enum(['user', 'department', 'enterprise', 'none']),
});
export type SafetySettings = z.infer<typeof safetySettingsSchema>;

/** What a settings row applies to: one user, one department (with its sub-departments), or a whole enterprise. */
export const SafetyTargetKinds = ['user', 'department', 'enterprise'] as const;
export type SafetyTargetKind = (typeof SafetyTargetKinds)[number];

/** A settings row's key, as `GET /api/Safety/QueryData` lists it and `POST /api/Safety/Delete` takes it. */
export const safetyKey = (kind: SafetyTargetKind, id: number) => `${kind}:${id}`;
const SAFETY_KEY = /^(user|department|enterprise):[1-9][0-9]{0,9}$/;

/** `GET /api/Safety/QueryData`: one stored settings row (not what is in force: see `GET /api/Safety/Settings`). */
export const safetySettingRowSchema = z.object({
  /** `user:<U_ID>`, `department:<OSID>` or `enterprise:<E_ID>`. */
  Key: z.string(),
  TargetKind: z.enum(SafetyTargetKinds),
  TargetID: z.number().int(),
  E_ID: z.number().int(),
  /** The user's, department's or enterprise's name ('' when it is gone). */
  Name: z.string(),
  CheckInMinutes: z.number().int(),
  GraceMinutes: z.number().int(),
  NoMovementMinutes: z.number().int(),
  NoMovementMeters: z.number().int(),
  UpdatedAt: z.number(),
});
export type SafetySettingRow = z.infer<typeof safetySettingRowSchema>;

/** `POST /api/Safety/Delete` `{ ids }`: settings rows by key, all of the caller's scope, or nothing is removed. */
export const safetyDeleteSchema = z.object({
  ids: z
    .array(
      z.string(keyed(MessageKeys.invalid)).regex(SAFETY_KEY, keyed(MessageKeys.invalid)),
      keyed(MessageKeys.required),
    )
    .min(1, keyed(MessageKeys.required))
    .max(SafetyLimits.targetsMax, keyed(MessageKeys.tooManyItems)),
});
export type SafetyDelete = z.infer<typeof safetyDeleteSchema>;
