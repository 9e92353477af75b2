import { z } from 'zod';
import { formId, formText, optionalFormInt } from './formFields.js';
import { MessageKeys } from './messages.js';

/**
 * Location-report profiles of an enterprise (docs/api.md, "Location-report profiles"). `mode` says
 * when a terminal reports:
 * - `interval`: every `interval` seconds (`distance` is ignored);
 * - `distance`: each time it has moved `distance` metres (at least 1), and after `interval` seconds
 *   of silence anyway, so a parked terminal still shows alive;
 * - `both`: every `interval` seconds, but only when it moved at least `distance` metres since the
 *   last report.
 */
export const LocationLimits = {
  nameMax: 32,
  intervalMin: 1,
  intervalMax: 86_400,
  distanceMin: 0,
  distanceMax: 10_000,
  /** Profiles per enterprise. */
  profilesMax: 50,
} as const;

export const LOCATION_MODES = ['interval', 'distance', 'both'] as const;
export type LocationMode = (typeof LOCATION_MODES)[number];

export const locationValueSchema = z
  .strictObject({
    interval: z.number().int().min(LocationLimits.intervalMin).max(LocationLimits.intervalMax),
    distance: z.number().int().min(LocationLimits.distanceMin).max(LocationLimits.distanceMax),
    mode: z.enum(LOCATION_MODES),
  })
  .refine((v) => v.mode !== 'distance' || v.distance > 0);
export type LocationValue = z.infer<typeof locationValueSchema>;

/** What an enterprise without a current profile reports with. */
export const DEFAULT_LOCATION_VALUE: LocationValue = { interval: 60, distance: 0, mode: 'interval' };

/** Parses a profile's scValue (JSON text); undefined when it is not a valid value. */
export function parseLocationValue(text: string): LocationValue | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = locationValueSchema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

export const locationProfileRowSchema = z.object({
  SC_ID: z.number().int(),
  E_ID: z.number().int(),
  SCName: z.string(),
  SCValue: z.string(),
  IsCurrent: z.number().int(),
});
export type LocationProfileRow = z.infer<typeof locationProfileRowSchema>;

/**
 * `POST /api/Enterprise/SaveLocationConfig` (admin): `scID` absent or 0 creates a profile in `eid`
 * (default the working enterprise); otherwise edits it. scValue is the JSON of `{interval, distance, mode}`.
 */
export const saveLocationConfigSchema = z.object({
  scID: optionalFormInt(0, 2 ** 31 - 1),
  eid: optionalFormInt(1, 2 ** 31 - 1),
  scName: formText(LocationLimits.nameMax, 1),
  scValue: z.string({ error: MessageKeys.required }).transform((text, ctx) => {
    const value = parseLocationValue(text);
    if (!value) {
      ctx.addIssue({ code: 'custom', message: MessageKeys.locationBadValue });
      return z.NEVER;
    }
    return JSON.stringify(value);
  }),
});

/** `POST /api/Enterprise/SaveCurrentLocationConfig` (admin): make the profile scID the current one. */
export const saveCurrentLocationSchema = z.object({ scID: formId() });

/** `GET /api/Enterprise/LocrptSet/{id}`: what the enterprise's terminals report with now. */
export const locrptSetSchema = z.object({
  E_ID: z.number().int(),
  /** The current profile, or 0 when none is current and the default applies. */
  SC_ID: z.number().int(),
  SCName: z.string(),
  SCValue: z.string(),
  interval: z.number().int(),
  distance: z.number().int(),
  mode: z.enum(LOCATION_MODES),
});
export type LocrptSet = z.infer<typeof locrptSetSchema>;

export const LocationLogActions = {
  profileSave: 'location_profile_save',
  profileCurrent: 'location_profile_current',
  profileDelete: 'location_profile_delete',
} as const;
