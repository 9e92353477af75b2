import path from 'node:path';
import { z } from 'zod';
import { SAFETY_ESCALATE_MINUTES, UserImportLimits } from '@intercom/contract';
import { parseTrustProxy, type TrustProxy } from './http/trustProxy.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const minutes = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(fallback);

/**
 * Least time between two live pushes of one scope to its consoles: at most 20 a second, so a fix
 * reaches the map within about 50 ms plus the network (issue 34, goal 3; docs/decisions.md).
 */
export const DEFAULT_HUB_PUSH_INTERVAL_MS = 50;

/** Every environment variable the server reads; README.md has the same table. */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(4096),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)')
      .default('intercom'),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    PASSWORD_HASH_LOG_N: z.coerce.number().int().min(10).max(20).default(17),
    TLS_CERT: z.string().optional(),
    TLS_KEY: z.string().optional(),
    SESSION_IDLE_MINUTES: minutes(30),
    SESSION_ABSOLUTE_MINUTES: minutes(12 * 60),
    LOGIN_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
    TERMINAL_LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    TERMINAL_LOGIN_LOCK_MINUTES: minutes(15),
    TERMINAL_LOGIN_IP_FAILURES: z.coerce.number().int().min(1).max(100_000).default(30),
    TERMINAL_LOGIN_SOCKET_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    BASEMAP_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
    TALK_MAX_SEATS_PER_ACCOUNT: z.coerce.number().int().min(1).max(16).default(2),
    TALK_BUNDLE_LISTENERS: z.coerce.number().int().min(0).max(1_000_000).default(100),
    ICP_TEXT: z.string().max(200).default(''),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((text, ctx) => {
        const setting = parseTrustProxy(text);
        if (typeof setting !== 'string') return setting;
        ctx.addIssue({ code: 'custom', message: setting });
        return z.NEVER;
      }),
    OSMAND_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    HEART_RATE_LOW: z.coerce.number().int().min(1).max(300).default(40),
    HEART_RATE_HIGH: z.coerce.number().int().min(1).max(300).default(160),
    GEOFENCE_MAX_PER_ENTERPRISE: z.coerce.number().int().min(1).max(100_000).default(500),
    GEOFENCE_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(50),
    GEOFENCE_ALARM_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    BASEMAP_PMTILES: z.string().max(1024).optional(),
    TALK_AGENT_DIR: z.string().max(1024).optional(),
    GEOCODER_URL: z
      .string()
      .max(512)
      .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
      .optional(),
    GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    GEOCODER_RATE_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(1),
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
    HISTORY_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a whole number of days (1-36500)' })
      .int('must be a whole number of days (1-36500)')
      .min(1, 'must be at least 1 day')
      .max(36_500, 'must be at most 36500 days (100 years)')
      .default(180),
    SAFETY_ESCALATE_MINUTES: minutes(SAFETY_ESCALATE_MINUTES),
    HUB_PUSH_INTERVAL_MS: z.coerce
      .number({ error: 'must be a whole number of milliseconds (20-1000)' })
      .int('must be a whole number of milliseconds (20-1000)')
      .min(20, 'must be at least 20 ms')
      .max(1000, 'must be at most 1000 ms')
      .default(DEFAULT_HUB_PUSH_INTERVAL_MS),
    IMPORT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(16).default(2),
    IMPORT_MAX_INFLATED_MB: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(UserImportLimits.maxUncompressedBytes / 1024 / 1024),
    IMPORT_MAX_SHARED_STRINGS: z.coerce.number().int().min(1000).max(10_000_000).default(200_000),
    IMPORT_MAX_SHARED_STRINGS_MB: z.coerce.number().int().min(1).max(1024).default(16),
    IMPORT_WORKER_HEAP_MB: z.coerce.number().int().min(32).max(4096).default(128),
  })
  .refine((env) => Boolean(env.TLS_CERT) === Boolean(env.TLS_KEY), {
    message: 'TLS_CERT and TLS_KEY must be set together',
    path: ['TLS_CERT'],
  })
  .refine((env) => env.OSMAND_PORT === undefined || env.OSMAND_PORT !== env.PORT, {
    message: 'must differ from PORT',
    path: ['OSMAND_PORT'],
  })
  .refine((env) => env.HEART_RATE_LOW < env.HEART_RATE_HIGH, {
    message: 'must be below HEART_RATE_HIGH',
    path: ['HEART_RATE_LOW'],
  });

export interface Config {
  port: number;
  host: string;
  /**
   * Connections the kernel may hold for the server before it accepts them (listen(2)'s backlog,
   * capped by net.core.somaxconn). Node's 511 overflowed when 10,000 terminals came back after a
   * restart: dropped handshakes retry after 1, 3, 7, 15 s... (docs/operations.md).
   */
  listenBacklog: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Start of every Redis channel and key: platforms that share one Redis each need their own. */
  redisPrefix: string;
  adminPassword: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * scrypt's cost of new password hashes and of the stand-in check for unknown names, as log2 of N
   * (DESIGN.md: 17). A hash keeps the cost it was made with, so a change applies to new passwords.
   */
  passwordHashLogN: number;
  tls: { cert: string; key: string } | undefined;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  loginIpLimitPerMinute: number;
  /**
   * `/terminal` login limits (docs/security.md "Terminal logins"): wrong passwords in a row that lock a
   * phone and for how long; failed logins per client address a minute; failed logins per socket.
   */
  terminalLogin: { maxFailures: number; lockMs: number; ipFailuresPerMinute: number; failuresPerSocket: number };
  /** Offline basemap tiles (and, apart, glyph ranges) one client IP may fetch a minute; past it 429. */
  basemapIpLimitPerMinute: number;
  /** Live dispatcher seats one console account may hold on all instances; past that the oldest is replaced. */
  talkMaxSeatsPerAccount: number;
  /** Listeners here from which a room's terminals get two frames per write; 0: never. */
  talkBundleListeners: number;
  icpText: string;
  /** Proxies whose X-Forwarded-For entries name the client (http/trustProxy.ts); false: none. */
  trustProxy: TrustProxy;
  /** Extra port for OsmAnd / Traccar Client devices (the same handler as /api/osmand); unset: none. */
  osmandPort: number | undefined;
  /** Heart rates outside [low, high] beats per minute raise an alarm. */
  heartRate: { low: number; high: number };
  /**
   * Geofence limits (docs/safety.md "Limits"): fences an enterprise may have, fences that may apply
   * to one user (a Save past either is refused), and the least time between two alarms of one user
   * and fence (0: none).
   */
  geofence: { maxPerEnterprise: number; maxPerUser: number; alarmCooldownMs: number };
  /** A PMTiles archive served at /basemap/tiles.pmtiles (DefaultMap PMTILES); unset: none. */
  basemapPmtiles: string | undefined;
  /** Directory of the bundled talk agent (talk-agent.mjs + talk-agent.json); unset: apps/talk-agent/dist. */
  talkAgentDir: string | undefined;
  /** Nominatim-compatible reverse geocoder; unset: addresses are not resolved. */
  geocoder: { url: string | undefined; timeoutMs: number; ratePerSecond: number };
  /** Bearer token that opens /metrics from anywhere; unset: /metrics answers loopback callers only. */
  metricsToken: string | undefined;
  /** Location history older than this many days is removed (PostgreSQL: whole day partitions). */
  historyRetentionDays: number;
  /** A safety alarm (SOS, ManDown, LoneWorker, NoMovement) still unacknowledged this long is raised again, escalated. */
  safetyEscalateMs: number;
  /** Least time between two live pushes of one scope to the consoles (hub option pushIntervalMs). */
  hubPushIntervalMs: number;
  /** Limits of user imports (docs/security.md "Imports"). */
  imports: ImportSettings;
  /** Directory of the built console; absent in API-only test runs. */
  consoleDir: string | undefined;
  /** Directory of the built field app (served at /field); absent in API-only test runs. */
  fieldDir: string | undefined;
}

/** What an import may cost; past a limit the file is refused (4000) or the import is busy (4029). */
export interface ImportSettings {
  /** Imports running at once on this instance (one per enterprise whatever this says). */
  maxConcurrent: number;
  /** Bytes an XLSX's entries may inflate to, all together, counted as they inflate. */
  maxInflatedBytes: number;
  /** Shared strings of an XLSX: how many, and their UTF-8 bytes all together. */
  maxSharedStrings: number;
  maxSharedStringBytes: number;
  /** Old-generation heap of the worker thread that reads the file; past it the worker ends. */
  workerHeapMb: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, consoleDir?: string, fieldDir?: string): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    listenBacklog: e.LISTEN_BACKLOG,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    passwordHashLogN: e.PASSWORD_HASH_LOG_N,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_MINUTES * 60_000,
    loginIpLimitPerMinute: e.LOGIN_IP_LIMIT_PER_MINUTE,
    terminalLogin: {
      maxFailures: e.TERMINAL_LOGIN_MAX_FAILURES,
      lockMs: e.TERMINAL_LOGIN_LOCK_MINUTES * 60_000,
      ipFailuresPerMinute: e.TERMINAL_LOGIN_IP_FAILURES,
      failuresPerSocket: e.TERMINAL_LOGIN_SOCKET_FAILURES,
    },
    basemapIpLimitPerMinute: e.BASEMAP_IP_LIMIT_PER_MINUTE,
    talkMaxSeatsPerAccount: e.TALK_MAX_SEATS_PER_ACCOUNT,
    talkBundleListeners: e.TALK_BUNDLE_LISTENERS,
    icpText: e.ICP_TEXT,
    trustProxy: e.TRUST_PROXY,
    osmandPort: e.OSMAND_PORT,
    heartRate: { low: e.HEART_RATE_LOW, high: e.HEART_RATE_HIGH },
    geofence: {
      maxPerEnterprise: e.GEOFENCE_MAX_PER_ENTERPRISE,
      maxPerUser: e.GEOFENCE_MAX_PER_USER,
      alarmCooldownMs: e.GEOFENCE_ALARM_COOLDOWN_SECONDS * 1000,
    },
    basemapPmtiles: e.BASEMAP_PMTILES ? path.resolve(e.BASEMAP_PMTILES) : undefined,
    talkAgentDir: e.TALK_AGENT_DIR ? path.resolve(e.TALK_AGENT_DIR) : undefined,
    geocoder: { url: e.GEOCODER_URL, timeoutMs: e.GEOCODER_TIMEOUT_MS, ratePerSecond: e.GEOCODER_RATE_PER_SECOND },
    metricsToken: e.METRICS_TOKEN,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    safetyEscalateMs: e.SAFETY_ESCALATE_MINUTES * 60_000,
    hubPushIntervalMs: e.HUB_PUSH_INTERVAL_MS,
    imports: {
      maxConcurrent: e.IMPORT_MAX_CONCURRENT,
      maxInflatedBytes: e.IMPORT_MAX_INFLATED_MB * 1024 * 1024,
      maxSharedStrings: e.IMPORT_MAX_SHARED_STRINGS,
      maxSharedStringBytes: e.IMPORT_MAX_SHARED_STRINGS_MB * 1024 * 1024,
      workerHeapMb: e.IMPORT_WORKER_HEAP_MB,
    },
    consoleDir,
    fieldDir,
  };
}
