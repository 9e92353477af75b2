import { z } from 'zod';
import { AUTH_CODE_PATTERN, TalkErrors, talkClientMessages, type TalkServerMessage } from './talk.js';
import { phoneField } from './user.js';
import { VideoErrors, videoClientMessages, type VideoServerMessage } from './video.js';

/**
 * Terminal protocols (docs/terminal-protocol.md): the JSON protocol of the WebSocket gateway
 * `/terminal`, the OsmAnd HTTP protocol at `/api/osmand`, and the location-history rows the
 * console reads back (GISLocation, HeartRateHis).
 */
export const TERMINAL_PATH = '/terminal';
export const OSMAND_PATH = '/api/osmand';

export const TerminalLimits = {
  /**
   * Largest text frame; a larger one gets a `too_large` error (frames above 1 MiB close the socket).
   * 32 KiB holds a full `positions` batch even with every field at full double precision (~200 bytes a fix).
   */
  maxMessageBytes: 32 * 1024,
  /** Messages per second one connection may send on average, and the burst it may send at once. */
  messagesPerSecond: 50,
  messagesBurst: 100,
  /** Fixes in one `positions` message (a terminal's buffer after a tunnel). */
  fixesPerBatch: 100,
  /** Seconds between heartbeats the server asks for; a terminal silent for 3 times this is offline. */
  heartbeatSeconds: 30,
  /** A fix may be this far ahead of the server clock (terminal clocks drift). */
  maxFutureSkewMs: 10 * 60_000,
  /** Fixes older than this are absurd (before 2000-01-01). */
  minFixTime: 946_684_800_000,
  maxSpeedKmh: 2_000,
  sosTextMax: 200,
  /** How long a login's `resume` token stands in for the password (docs/terminal-protocol.md). */
  resumeTtlMs: 30 * 24 * 3_600_000,
} as const;

/**
 * A `resume` token: 32 random bytes, base64url. A password login's ack hands one out; the terminal
 * sends it with its next logins, and while it is good the server skips the password's scrypt (about
 * 0.6 s of a core and 128 MiB each), which a reconnect storm after a restart would otherwise pay per
 * terminal.
 */
export const RESUME_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Low-battery alarm threshold (percent): raised once when the level falls to it or below. */
export const LOW_BATTERY_PERCENT = 15;

/** H_Type of a stored fix. */
export const FixTypes = { gps: 0, network: 1, wifi: 2, manual: 3 } as const;

/** Codes of `error` replies; the message stays a short English hint for whoever reads a log. */
export const TerminalErrors = {
  badJson: 'bad_json',
  tooLarge: 'too_large',
  invalid: 'invalid',
  unknownType: 'unknown_type',
  notSupported: 'not_supported',
  notLoggedIn: 'not_logged_in',
  alreadyLoggedIn: 'already_logged_in',
  /** Unknown phone or wrong password: one answer, so it does not reveal which phones exist. */
  badCredentials: 'bad_credentials',
  frozen: 'frozen',
  expired: 'expired',
  enterpriseDisabled: 'enterprise_disabled',
  tooManyAttempts: 'too_many_attempts',
  rateLimited: 'rate_limited',
  /**
   * Too many failed logins from the client's address within a minute: a login that no good `resume`
   * token or AuthCode lets in is refused before its password is checked; `retryAfterMs`.
   */
  loginRateLimited: 'login_rate_limited',
  /** The history queue is full (not stored, send it again later); or the floor is taken (TalkErrors). */
  shuttingDown: 'shutting_down',
  internal: 'internal',
  ...TalkErrors,
  ...VideoErrors,
} as const;
export type TerminalErrorCode = (typeof TerminalErrors)[keyof typeof TerminalErrors];

/** WebSocket close codes the gateway uses (with a `closing` message first where it can). */
export const TerminalCloseCodes = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  replaced: 4001,
  accountChanged: 4002,
  loginTimeout: 4003,
  heartbeatTimeout: 4004,
  /** Too many failed logins on this socket (`login_failures`). */
  loginFailures: 4005,
} as const;

/** Why the server closes a terminal's socket (the `reason` of a `closing` message). */
export const TERMINAL_CLOSE_REASONS = [
  'logout',
  'replaced',
  'frozen',
  'deleted',
  'recovered',
  'password',
  'login_timeout',
  'heartbeat_timeout',
  'flooding',
  'server_restart',
  /** A dispatcher seat's console session ended (timed out, replaced by a new login, or the account is gone). */
  'session_end',
  /** Too many failed logins on one socket: a new socket may try again. */
  'login_failures',
] as const;
export type TerminalCloseReason = (typeof TERMINAL_CLOSE_REASONS)[number];

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const percent = z.number().min(0).max(100);

/** A fix time: epoch ms, not before 2000 and not more than 10 minutes ahead of the server clock. */
export const fixTimeSchema = z
  .number()
  .int()
  .min(TerminalLimits.minFixTime)
  .refine((t) => t <= Date.now() + TerminalLimits.maxFutureSkewMs, { message: 'time is in the future' });

/** One position fix. `fixType` is stored as H_Type (FixTypes). Speed km/h, course degrees, metres. */
export const fixSchema = z.object({
  lat: latitude,
  lon: longitude,
  time: fixTimeSchema,
  speed: z.number().min(0).max(TerminalLimits.maxSpeedKmh).nullish(),
  course: z.number().min(0).max(360).nullish(),
  accuracy: z.number().min(0).max(1_000_000).nullish(),
  altitude: z.number().min(-1_000).max(100_000).nullish(),
  fixType: z.number().int().min(0).max(15).optional(),
});
export type Fix = z.infer<typeof fixSchema>;

const message = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ seq, type: z.literal(type), ...shape });

/**
 * A terminal logs in with `phone` and `password` (or the `resume` token of an earlier login, with or
 * without the password); a dispatcher seat with `authCode` alone.
 */
export const terminalLoginSchema = message('login', {
  phone: z.string().min(1).max(32).optional(),
  password: z.string().min(1).max(64).optional(),
  resume: z.string().regex(RESUME_TOKEN_PATTERN).optional(),
  authCode: z.string().regex(AUTH_CODE_PATTERN).optional(),
  /** Free text for the log: model, app version. */
  device: z.string().max(64).optional(),
});

/** Messages a terminal sends. Every one carries `seq` and gets an `ack` or an `error` with it. */
export const terminalClientMessageSchema = z.discriminatedUnion('type', [
  terminalLoginSchema,
  message('heartbeat', {}),
  message('position', fixSchema.shape),
  message('positions', { fixes: z.array(fixSchema).min(1).max(TerminalLimits.fixesPerBatch) }),
  message('status', { battery: percent.nullish(), signal: percent.nullish(), charging: z.boolean().optional() }),
  message('heartRate', { value: z.number().int().min(1).max(300), time: fixTimeSchema.optional() }),
  message('sos', {
    lat: latitude.optional(),
    lon: longitude.optional(),
    text: z.string().max(TerminalLimits.sosTextMax).optional(),
  }),
  /** A fall detected (docs/safety.md): a `ManDown` alarm, treated like SOS, and an emergency call. */
  message('manDown', { lat: latitude.optional(), lon: longitude.optional() }),
  /** The answer to `checkInDue`: the lone worker is fine. */
  message('checkIn', {}),
  message('logout', {}),
  ...talkClientMessages,
  ...videoClientMessages,
]);
export type TerminalClientMessage = z.infer<typeof terminalClientMessageSchema>;
export type TerminalMessageType = TerminalClientMessage['type'];

/** What a terminal reports with: the user's GPS parameter over its enterprise's current profile. */
export const terminalConfigSchema = z.object({
  /** Seconds between reports. */
  interval: z.number().int(),
  /** Metres of movement that trigger a report (modes `distance` and `both`). */
  distance: z.number().int(),
  mode: z.enum(['interval', 'distance', 'both']),
  /** False: the user's GPS is switched off (capability or GPS parameter); send no positions. */
  enabled: z.boolean(),
  /** Seconds between heartbeats. */
  heartbeat: z.number().int(),
});
export type TerminalConfig = z.infer<typeof terminalConfigSchema>;

export const terminalUserSchema = z.object({
  U_ID: z.number().int(),
  E_ID: z.number().int(),
  UserName: z.string(),
  Phone: z.string(),
});

/** Messages the server sends. */
export type TerminalServerMessage =
  | { type: 'ack'; seq: number; [field: string]: unknown }
  | {
      type: 'error';
      seq: number | null;
      code: TerminalErrorCode;
      message: string;
      field?: string;
      retryAfterMs?: number;
    }
  | { type: 'config'; config: TerminalConfig }
  | { type: 'closing'; reason: TerminalCloseReason }
  /** Lone worker (docs/safety.md): answer with `checkIn` before `dueAt` (epoch ms) plus the grace. */
  | { type: 'checkInDue'; dueAt: number }
  | TalkServerMessage
  | VideoServerMessage;

/** The login ack's fields. */
export interface TerminalLoginAck {
  user: z.infer<typeof terminalUserSchema>;
  config: TerminalConfig;
  serverTime: number;
  /** After a password login: a token for the next logins (RESUME_TOKEN_PATTERN, good for TerminalLimits.resumeTtlMs). */
  resume?: string;
}

/** A dispatcher seat's login ack: its identity and floor priority. */
export interface SeatLoginAck {
  seat: { dispatchNo: string; A_ID: number; E_ID: number; name: string; priority: number };
  serverTime: number;
}

/**
 * OsmAnd / Traccar Client parameters (query string or form). `id` is the user's phone or a device
 * code; `timestamp` is epoch seconds (or ms) or an ISO 8601 time; `speed` is in knots, as
 * Traccar Client sends it; `batt` percent.
 */
const osmandNumber = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
const osmandOptional = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v), schema.optional());

export const osmandParamsSchema = z.object({
  id: z.string().trim().min(1).max(64),
  lat: osmandNumber(latitude),
  lon: osmandNumber(longitude),
  timestamp: z.union([z.string().trim().min(1).max(40), z.number()]),
  speed: osmandOptional(z.number().min(0).max(TerminalLimits.maxSpeedKmh)),
  bearing: osmandOptional(z.number().min(0).max(360)),
  altitude: osmandOptional(z.number().min(-1_000).max(100_000)),
  accuracy: osmandOptional(z.number().min(0).max(1_000_000)),
  batt: osmandOptional(percent),
});
export type OsmandParams = z.infer<typeof osmandParamsSchema>;

/** OsmAnd `timestamp` as epoch ms: seconds below 1e11, else ms; other text as an ISO time. NaN if unreadable. */
export function osmandTime(value: string | number): number {
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    return Math.round(n < 1e11 ? n * 1000 : n);
  }
  return Date.parse(text);
}

export const KNOTS_TO_KMH = 1.852;

/** One stored fix: a row of `GET /api/GISLocation/QueryData` (times epoch ms). */
export const locationPointSchema = z.object({
  H_ID: z.number().int(),
  E_ID: z.number().int(),
  U_ID: z.number().int(),
  H_Time: z.number().int(),
  H_Type: z.number().int(),
  C_Longitude: z.number(),
  C_Latitude: z.number(),
  Speed: z.number().nullable(),
  Course: z.number().nullable(),
  Accuracy: z.number().nullable(),
  Altitude: z.number().nullable(),
});
export type LocationPoint = z.infer<typeof locationPointSchema>;

/** `GET /api/GISLocation/HeartRateHis?phone=`: one user's readings, oldest first. */
export const heartRateHisQuerySchema = z.object({
  // A phone as users have them (digits): anything else, a NUL byte say, is 4000 before any query.
  phone: phoneField(),
  H_Time1: z.coerce.number().int().min(0).optional(),
  H_Time2: z.coerce.number().int().min(0).optional(),
  pageSize: z.coerce.number().int().min(1).max(500).default(500),
});

export const heartRateRowSchema = z.object({
  HR_ID: z.number().int(),
  E_ID: z.number().int(),
  U_ID: z.number().int(),
  Phone: z.string(),
  Value: z.number().int(),
  H_Time: z.number().int(),
});
export type HeartRateRow = z.infer<typeof heartRateRowSchema>;

/** `GET /api/GISLocation/OnlineSummary`: the map's three counts over the caller's scope. */
export const gisOnlineSummarySchema = z.object({
  /** Terminal users in scope. */
  User: z.number().int(),
  /** Connected to the gateway now. */
  ChatOnline: z.number().int(),
  /** Latest fix newer than 1.5 times the user's report interval. */
  GpsOnline: z.number().int(),
});
