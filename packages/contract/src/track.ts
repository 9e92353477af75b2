import { z } from 'zod';
import { MessageKeys } from './messages.js';
import { DEFAULT_STOP_MIN_MS, DEFAULT_STOP_RADIUS_M } from './trackRules.js';

/** The longest range one Track call answers (a week of 1 Hz fixes is 604,800 points). */
export const TRACK_MAX_RANGE_MS = 7 * 24 * 3_600_000;
/** With only a start (or only an end), the range is this long from it. */
export const TRACK_DEFAULT_RANGE_MS = 24 * 3_600_000;

/** Epoch ms as digits ("" or "1e12" or "-5" are refused, never read as 0). */
const epochMs = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, { error: MessageKeys.invalid })
  .transform(Number);

const wholeText = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, { error: MessageKeys.invalid })
    .transform(Number)
    .pipe(z.number().max(max, { error: MessageKeys.outOfRange }));

const trackQueryFields = z.object({
  U_ID: z.coerce.number().int().min(1).max(2_147_483_647),
  H_Time1: epochMs.optional(),
  H_Time2: epochMs.optional(),
  stopRadius: wholeText(1000).optional(),
  stopMinutes: wholeText(1440).optional(),
});
type TrackQueryFields = z.infer<typeof trackQueryFields>;

/** A start or an end is required (SPEC.md section 5), the end not before the start, at most 7 days. */
function checkRange(q: TrackQueryFields, ctx: z.RefinementCtx) {
  if (q.H_Time1 === undefined && q.H_Time2 === undefined) {
    ctx.addIssue({ code: 'custom', message: MessageKeys.traceTimeRequired, path: ['H_Time1'] });
    return;
  }
  const { from, to } = trackRange(q);
  if (to < from) ctx.addIssue({ code: 'custom', message: MessageKeys.traceTimeOrder, path: ['H_Time2'] });
  else if (to - from > TRACK_MAX_RANGE_MS) {
    ctx.addIssue({ code: 'custom', message: MessageKeys.traceRangeTooLong, path: ['H_Time2'] });
  }
}

const toTrackQuery = (q: TrackQueryFields) => ({
  U_ID: q.U_ID,
  ...trackRange(q),
  stopRadius: q.stopRadius ?? DEFAULT_STOP_RADIUS_M,
  stopMinMs: q.stopMinutes === undefined ? DEFAULT_STOP_MIN_MS : q.stopMinutes * 60_000,
});

/**
 * `GET /api/GISLocation/Track?U_ID=&H_Time1=&H_Time2=` (epoch ms). A start or an end is required;
 * the other defaults to a day from it; at most 7 days. `stopRadius` (metres, default 30; 0: only
 * identical points) and `stopMinutes` (default 5) tune the stop rule.
 */
export const trackQuerySchema = trackQueryFields.superRefine(checkRange).transform(toTrackQuery);
export type TrackQuery = z.infer<typeof trackQuerySchema>;

/** The range a query names: a missing bound is a day from the other. */
export function trackRange(q: { H_Time1?: number; H_Time2?: number }): { from: number; to: number } {
  const from = q.H_Time1 ?? (q.H_Time2 as number) - TRACK_DEFAULT_RANGE_MS;
  const to = q.H_Time2 ?? (q.H_Time1 as number) + TRACK_DEFAULT_RANGE_MS;
  return { from: Math.max(0, from), to };
}

const span = z.object({ begin: z.number().int(), end: z.number().int() });

/** `BaseData` of the Track call: fixes as parallel arrays, stops, "no data" gaps and the stats. */
export const trackSchema = z.object({
  t: z.array(z.number()),
  lat: z.array(z.number()),
  lon: z.array(z.number()),
  speed: z.array(z.number()),
  course: z.array(z.number().nullable()),
  type: z.array(z.number()),
  stops: z.array(span.extend({ lat: z.number(), lon: z.number() })),
  gaps: z.array(span),
  distance: z.number(),
  movingMs: z.number(),
  stoppedMs: z.number(),
  maxSpeed: z.number(),
  avgSpeed: z.number(),
});

/** `GET /api/GISLocation/ExportTrack`: the Track query, a format and the reader's offset from UTC (minutes). */
export const trackExportQuerySchema = trackQueryFields
  .extend({
    format: z.enum(['gpx', 'csv']).optional().default('gpx'),
    utcOffset: z.coerce.number().int().min(-840).max(840).optional().default(0),
  })
  .superRefine(checkRange)
  .transform((q) => ({ ...toTrackQuery(q), format: q.format, utcOffset: q.utcOffset }));
export type TrackExportQuery = z.infer<typeof trackExportQuerySchema>;
