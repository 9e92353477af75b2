import { z } from 'zod';
import { formText } from './formFields.js';
import { fenceShapeFields, refineFenceShape } from './geofence.js';
import { MessageKeys } from './messages.js';

/**
 * Incident zones (docs/safety.md): a temporary channel whose members are the enterprise's online users
 * whose latest fix lies inside the zone. Users who enter join, users who leave drop out (unless Sticky).
 */
export const IncidentLimits = {
  nameMax: 64,
  /** Open incidents one enterprise may have. */
  openMax: 50,
} as const;

export const IncidentLogActions = { create: 'incident_create', close: 'incident_close' } as const;

/** Why a terminal leaves an incident's channel (`channelLeft.reason`). */
export const IncidentLeaveReasons = { leftZone: 'left_zone', closed: 'incident_closed' } as const;

/** `POST /api/Incident/Create` (JSON) → `BaseData { IN_ID, CID }`. */
export const incidentCreateSchema = z
  .object({
    Name: formText(IncidentLimits.nameMax, 1),
    ...fenceShapeFields,
    Sticky: z.boolean({ error: MessageKeys.invalid }).optional(),
  })
  .superRefine(refineFenceShape);
export type IncidentCreate = z.infer<typeof incidentCreateSchema>;

export const incidentCreatedSchema = z.object({ IN_ID: z.number().int(), CID: z.number().int() });

/** `POST /api/Incident/Close` (JSON). */
export const incidentCloseSchema = z.object({
  IN_ID: z
    .number({ error: MessageKeys.required })
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

/** One entry of an incident's member timeline. */
export const incidentMemberEventSchema = z.object({
  U_ID: z.number().int(),
  UserName: z.string(),
  At: z.number().int(),
  Change: z.enum(['joined', 'left']),
});

/** One incident as `GET /api/Incident/QueryData` lists it (times epoch ms; ClosedAt null while open). */
export const incidentRowSchema = z.object({
  IN_ID: z.number().int(),
  E_ID: z.number().int(),
  CID: z.number().int(),
  Name: z.string(),
  Kind: z.string(),
  Center: z.tuple([z.number(), z.number()]).nullable(),
  Radius: z.number().nullable(),
  Points: z.array(z.tuple([z.number(), z.number()])).nullable(),
  Sticky: z.boolean(),
  CreatedAt: z.number().int(),
  ClosedAt: z.number().int().nullable(),
  /** Users inside now (open incidents) or at the close. */
  MemberIds: z.array(z.number().int()),
  Timeline: z.array(incidentMemberEventSchema),
  /** Speech bursts in the incident's channel (the recordings). */
  Bursts: z.array(z.object({ U_ID: z.number().int(), Start: z.number().int(), End: z.number().int() })),
  /** Alarms raised by members while the incident was open. */
  AlarmIds: z.array(z.number().int()),
});
export type IncidentRow = z.infer<typeof incidentRowSchema>;

/** Error message keys of `/api/Incident/*` (translated in the console under `incident.`). */
export const IncidentMessageKeys = {
  /** Close of an incident already closed (4009). */
  alreadyClosed: 'incident.already_closed',
  /** Create while the enterprise has `IncidentLimits.openMax` open incidents (4009). */
  tooManyOpen: 'incident.too_many_open',
} as const;

/** An incident's membership changes, as the bus carries them to every instance's talk service. */
export const IncidentChanges = { opened: 'opened', members: 'members', closed: 'closed' } as const;
export type IncidentChange = (typeof IncidentChanges)[keyof typeof IncidentChanges];

/**
 * The hub's `Incident` push (docs/realtime.md): an incident of the scope opened, closed or had members
 * join or leave. It names the incident only; a console reads its open incidents again.
 */
export const incidentPushSchema = z.object({
  IN_ID: z.number().int(),
  E_ID: z.number().int(),
  change: z.enum(IncidentChanges),
});
export type IncidentPush = z.infer<typeof incidentPushSchema>;
