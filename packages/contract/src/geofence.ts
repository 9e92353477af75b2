import { z } from 'zod';
import { formText, idList, jsonId } from './formFields.js';
import { ringSelfIntersects } from './geofenceGeometry.js';
import { MessageKeys } from './messages.js';

export const GeofenceLimits = {
  nameMax: 64,
  radiusMin: 10,
  radiusMax: 100_000,
  pointsMin: 3,
  pointsMax: 500,
  dwellMax: 1440,
  /** Users or departments one fence may name. */
  targetsMax: 1000,
  /** Fences one Delete call may name. */
  deleteMax: 500,
  /** Metres either side of the edge a fix must clear to count as a crossing, when it gives no accuracy. */
  hysteresisMinMeters: 10,
} as const;

export const GeofenceKinds = { circle: 'circle', polygon: 'polygon' } as const;

/** Alarm `NType`s of geofences (the alarm records of `/api/Notification/*`). */
export const GeofenceAlarmTypes = {
  enter: 'GeofenceEnter',
  exit: 'GeofenceExit',
  dwell: 'GeofenceDwell',
} as const;

export const GeofenceLogActions = {
  create: 'geofence_create',
  update: 'geofence_update',
  delete: 'geofence_delete',
} as const;

const keyed = (key: string) => ({ error: key });
const latitude = z
  .number(keyed(MessageKeys.notNumber))
  .min(-90, keyed(MessageKeys.outOfRange))
  .max(90, keyed(MessageKeys.outOfRange));
const longitude = z
  .number(keyed(MessageKeys.notNumber))
  .min(-180, keyed(MessageKeys.outOfRange))
  .max(180, keyed(MessageKeys.outOfRange));
const latLon = z.tuple([latitude, longitude], keyed(MessageKeys.invalid));
const targets = () => idList(GeofenceLimits.targetsMax);

/** The shape of a fence or an incident zone: a circle (Center, Radius) or a polygon (Points). */
export const fenceShapeFields = {
  Kind: z.enum([GeofenceKinds.circle, GeofenceKinds.polygon], keyed(MessageKeys.invalid)),
  Center: latLon.optional(),
  Radius: z
    .number(keyed(MessageKeys.notNumber))
    .min(GeofenceLimits.radiusMin, keyed(MessageKeys.outOfRange))
    .max(GeofenceLimits.radiusMax, keyed(MessageKeys.outOfRange))
    .optional(),
  Points: z
    .array(latLon, keyed(MessageKeys.invalid))
    .min(GeofenceLimits.pointsMin, keyed(MessageKeys.tooShort))
    .max(GeofenceLimits.pointsMax, keyed(MessageKeys.tooManyItems))
    .optional(),
};

/** A circle needs Center and Radius, a polygon 3 to 500 Points whose edges do not cross. */
export function refineFenceShape(
  v: { Kind: string; Center?: [number, number]; Radius?: number; Points?: Array<[number, number]> },
  ctx: z.RefinementCtx,
): void {
  const missing = (path: string) => ctx.addIssue({ code: 'custom', path: [path], message: MessageKeys.required });
  if (v.Kind === GeofenceKinds.circle) {
    if (!v.Center) missing('Center');
    if (v.Radius === undefined) missing('Radius');
  } else if (!v.Points) missing('Points');
  else if (ringSelfIntersects(v.Points)) {
    ctx.addIssue({ code: 'custom', path: ['Points'], message: MessageKeys.selfIntersecting });
  }
}

/**
 * `POST /api/Geofence/Save` (JSON): GF_ID absent or 0 creates. A circle needs Center and Radius, a
 * polygon 3 to 500 Points whose edges do not cross. No UserIds and no DepartmentIds: the fence
 * applies to the whole enterprise. A department includes its sub-departments.
 */
export const geofenceSaveSchema = z
  .object({
    GF_ID: jsonId(0).optional(),
    E_ID: jsonId().optional(),
    Name: formText(GeofenceLimits.nameMax, 1),
    ...fenceShapeFields,
    Enter: z.boolean(keyed(MessageKeys.required)),
    Exit: z.boolean(keyed(MessageKeys.required)),
    DwellMinutes: z
      .number(keyed(MessageKeys.notNumber))
      .int(keyed(MessageKeys.notNumber))
      .min(0, keyed(MessageKeys.outOfRange))
      .max(GeofenceLimits.dwellMax, keyed(MessageKeys.outOfRange))
      .optional(),
    UserIds: targets().optional(),
    DepartmentIds: targets().optional(),
  })
  .superRefine(refineFenceShape);
export type GeofenceSave = z.infer<typeof geofenceSaveSchema>;

/** One fence as `GET /api/Geofence/QueryData` lists it (times epoch ms). */
export const geofenceRowSchema = z.object({
  GF_ID: z.number().int(),
  E_ID: z.number().int(),
  Name: z.string(),
  Kind: z.string(),
  Center: z.tuple([z.number(), z.number()]).nullable(),
  Radius: z.number().nullable(),
  Points: z.array(z.tuple([z.number(), z.number()])).nullable(),
  Enter: z.boolean(),
  Exit: z.boolean(),
  DwellMinutes: z.number().int(),
  UserIds: z.array(z.number().int()),
  DepartmentIds: z.array(z.number().int()),
  CreatedAt: z.number().int(),
  UpdatedAt: z.number().int(),
});
export type GeofenceRow = z.infer<typeof geofenceRowSchema>;

/** `POST /api/Geofence/Delete`: fences `ids` of the caller's scope. */
export const geofenceDeleteSchema = z.object({ ids: idList(GeofenceLimits.deleteMax, MessageKeys.required) });

export const geofenceSavedSchema = z.object({ GF_ID: z.number().int() });
