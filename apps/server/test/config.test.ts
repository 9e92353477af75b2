import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      listenBacklog: 4096,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'intercom',
      adminPassword: undefined,
      logLevel: 'info',
      passwordHashLogN: 17,
      tls: undefined,
      sessionIdleMs: 30 * 60_000,
      sessionAbsoluteMs: 12 * 60 * 60_000,
      loginIpLimitPerMinute: 30,
      terminalLogin: { maxFailures: 5, lockMs: 15 * 60_000, ipFailuresPerMinute: 30, failuresPerSocket: 5 },
      basemapIpLimitPerMinute: 1200,
      talkMaxSeatsPerAccount: 2,
      talkBundleListeners: 100,
      icpText: '',
      trustProxy: false,
      osmandPort: undefined,
      heartRate: { low: 40, high: 160 },
      geofence: { maxPerEnterprise: 500, maxPerUser: 50, alarmCooldownMs: 60_000 },
      basemapPmtiles: undefined,
      geocoder: { url: undefined, timeoutMs: 5000, ratePerSecond: 1 },
      historyRetentionDays: 180,
      safetyEscalateMs: 5 * 60_000,
      hubPushIntervalMs: 50,
      imports: {
        maxConcurrent: 2,
        maxInflatedBytes: 100 * 1024 * 1024,
        maxSharedStrings: 200_000,
        maxSharedStringBytes: 16 * 1024 * 1024,
        workerHeapMb: 128,
      },
      consoleDir: undefined,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9090',
        HOST: '127.0.0.1',
        LISTEN_BACKLOG: '8192',
        DATA_DIR: '/tmp/intercom-data',
        DATABASE_URL: 'postgresql://u@db:5432/intercom',
        REDIS_URL: 'rediss://cache:6380',
        REDIS_PREFIX: 'intercom-eu',
        ADMIN_PASSWORD: 'Long#enough1',
        LOG_LEVEL: 'warn',
        PASSWORD_HASH_LOG_N: '15',
        TLS_CERT: '/etc/tls/cert.pem',
        TLS_KEY: '/etc/tls/key.pem',
        SESSION_IDLE_MINUTES: '10',
        SESSION_ABSOLUTE_MINUTES: '480',
        LOGIN_IP_LIMIT_PER_MINUTE: '5',
        TERMINAL_LOGIN_MAX_FAILURES: '3',
        TERMINAL_LOGIN_LOCK_MINUTES: '30',
        TERMINAL_LOGIN_IP_FAILURES: '60',
        TERMINAL_LOGIN_SOCKET_FAILURES: '2',
        BASEMAP_IP_LIMIT_PER_MINUTE: '600',
        ICP_TEXT: '京ICP备00000000号',
        TRUST_PROXY: 'true',
        OSMAND_PORT: '5055',
        HEART_RATE_LOW: '45',
        HEART_RATE_HIGH: '150',
        GEOFENCE_MAX_PER_ENTERPRISE: '200',
        GEOFENCE_MAX_PER_USER: '20',
        GEOFENCE_ALARM_COOLDOWN_SECONDS: '0',
        BASEMAP_PMTILES: '/srv/maps/world.pmtiles',
        GEOCODER_URL: 'http://nominatim.lan:8080',
        GEOCODER_TIMEOUT_MS: '2000',
        GEOCODER_RATE_PER_SECOND: '5',
        METRICS_TOKEN: 'a-metrics-token-of-32-characters',
        HISTORY_RETENTION_DAYS: '365',
        SAFETY_ESCALATE_MINUTES: '2',
        TALK_MAX_SEATS_PER_ACCOUNT: '3',
        TALK_BUNDLE_LISTENERS: '0',
        HUB_PUSH_INTERVAL_MS: '250',
        IMPORT_MAX_CONCURRENT: '4',
        IMPORT_MAX_INFLATED_MB: '50',
        IMPORT_MAX_SHARED_STRINGS: '50000',
        IMPORT_MAX_SHARED_STRINGS_MB: '8',
        IMPORT_WORKER_HEAP_MB: '256',
      },
      '/srv/console',
    );
    expect(config).toEqual({
      port: 9090,
      host: '127.0.0.1',
      listenBacklog: 8192,
      dataDir: '/tmp/intercom-data',
      databaseUrl: 'postgresql://u@db:5432/intercom',
      redisUrl: 'rediss://cache:6380',
      redisPrefix: 'intercom-eu',
      adminPassword: 'Long#enough1',
      logLevel: 'warn',
      passwordHashLogN: 15,
      tls: { cert: '/etc/tls/cert.pem', key: '/etc/tls/key.pem' },
      sessionIdleMs: 10 * 60_000,
      sessionAbsoluteMs: 480 * 60_000,
      loginIpLimitPerMinute: 5,
      terminalLogin: { maxFailures: 3, lockMs: 30 * 60_000, ipFailuresPerMinute: 60, failuresPerSocket: 2 },
      basemapIpLimitPerMinute: 600,
      talkMaxSeatsPerAccount: 3,
      talkBundleListeners: 0,
      icpText: '京ICP备00000000号',
      trustProxy: { hops: 1 },
      osmandPort: 5055,
      heartRate: { low: 45, high: 150 },
      geofence: { maxPerEnterprise: 200, maxPerUser: 20, alarmCooldownMs: 0 },
      basemapPmtiles: '/srv/maps/world.pmtiles',
      geocoder: { url: 'http://nominatim.lan:8080', timeoutMs: 2000, ratePerSecond: 5 },
      metricsToken: 'a-metrics-token-of-32-characters',
      historyRetentionDays: 365,
      safetyEscalateMs: 2 * 60_000,
      hubPushIntervalMs: 250,
      imports: {
        maxConcurrent: 4,
        maxInflatedBytes: 50 * 1024 * 1024,
        maxSharedStrings: 50_000,
        maxSharedStringBytes: 8 * 1024 * 1024,
        workerHeapMb: 256,
      },
      consoleDir: '/srv/console',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['LISTEN_BACKLOG', { LISTEN_BACKLOG: '0' }],
    ['LISTEN_BACKLOG', { LISTEN_BACKLOG: '70000' }],
    ['LISTEN_BACKLOG', { LISTEN_BACKLOG: 'many' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['PASSWORD_HASH_LOG_N', { PASSWORD_HASH_LOG_N: '9' }],
    ['PASSWORD_HASH_LOG_N', { PASSWORD_HASH_LOG_N: '21' }],
    ['PASSWORD_HASH_LOG_N', { PASSWORD_HASH_LOG_N: '16.5' }],
    ['PASSWORD_HASH_LOG_N', { PASSWORD_HASH_LOG_N: 'strong' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache' }],
    ['REDIS_PREFIX', { REDIS_PREFIX: 'a b' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }],
    ['TLS_CERT', { TLS_CERT: '/etc/tls/cert.pem' }],
    ['TLS_CERT', { TLS_KEY: '/etc/tls/key.pem' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'short' }],
    ['SESSION_IDLE_MINUTES', { SESSION_IDLE_MINUTES: '0' }],
    ['SESSION_ABSOLUTE_MINUTES', { SESSION_ABSOLUTE_MINUTES: 'forever' }],
    ['LOGIN_IP_LIMIT_PER_MINUTE', { LOGIN_IP_LIMIT_PER_MINUTE: '-3' }],
    ['TERMINAL_LOGIN_MAX_FAILURES', { TERMINAL_LOGIN_MAX_FAILURES: '0' }],
    ['TERMINAL_LOGIN_MAX_FAILURES', { TERMINAL_LOGIN_MAX_FAILURES: '101' }],
    ['TERMINAL_LOGIN_LOCK_MINUTES', { TERMINAL_LOGIN_LOCK_MINUTES: '0' }],
    ['TERMINAL_LOGIN_LOCK_MINUTES', { TERMINAL_LOGIN_LOCK_MINUTES: 'long' }],
    ['TERMINAL_LOGIN_IP_FAILURES', { TERMINAL_LOGIN_IP_FAILURES: '0' }],
    ['TERMINAL_LOGIN_IP_FAILURES', { TERMINAL_LOGIN_IP_FAILURES: '2.5' }],
    ['TERMINAL_LOGIN_SOCKET_FAILURES', { TERMINAL_LOGIN_SOCKET_FAILURES: '0' }],
    ['TERMINAL_LOGIN_SOCKET_FAILURES', { TERMINAL_LOGIN_SOCKET_FAILURES: 'five' }],
    ['BASEMAP_IP_LIMIT_PER_MINUTE', { BASEMAP_IP_LIMIT_PER_MINUTE: '0' }],
    ['TALK_MAX_SEATS_PER_ACCOUNT', { TALK_MAX_SEATS_PER_ACCOUNT: '0' }],
    ['TALK_MAX_SEATS_PER_ACCOUNT', { TALK_MAX_SEATS_PER_ACCOUNT: 'two' }],
    ['TALK_MAX_SEATS_PER_ACCOUNT', { TALK_MAX_SEATS_PER_ACCOUNT: '17' }],
    ['TALK_BUNDLE_LISTENERS', { TALK_BUNDLE_LISTENERS: '-1' }],
    ['TALK_BUNDLE_LISTENERS', { TALK_BUNDLE_LISTENERS: 'many' }],
    ['TALK_BUNDLE_LISTENERS', { TALK_BUNDLE_LISTENERS: '2.5' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['OSMAND_PORT', { OSMAND_PORT: '0' }],
    ['GEOCODER_URL', { GEOCODER_URL: 'ftp://geo' }],
    ['GEOCODER_TIMEOUT_MS', { GEOCODER_TIMEOUT_MS: '5' }],
    ['GEOCODER_RATE_PER_SECOND', { GEOCODER_RATE_PER_SECOND: '0' }],
    ['OSMAND_PORT', { OSMAND_PORT: '8080' }],
    ['HEART_RATE_LOW', { HEART_RATE_LOW: '170' }],
    ['HEART_RATE_HIGH', { HEART_RATE_HIGH: 'fast' }],
    ['GEOFENCE_MAX_PER_ENTERPRISE', { GEOFENCE_MAX_PER_ENTERPRISE: '0' }],
    ['GEOFENCE_MAX_PER_USER', { GEOFENCE_MAX_PER_USER: 'fifty' }],
    ['GEOFENCE_ALARM_COOLDOWN_SECONDS', { GEOFENCE_ALARM_COOLDOWN_SECONDS: '-1' }],
    ['GEOFENCE_ALARM_COOLDOWN_SECONDS', { GEOFENCE_ALARM_COOLDOWN_SECONDS: '1.5' }],
    ['HUB_PUSH_INTERVAL_MS', { HUB_PUSH_INTERVAL_MS: '0' }],
    ['HUB_PUSH_INTERVAL_MS', { HUB_PUSH_INTERVAL_MS: '19' }],
    ['HUB_PUSH_INTERVAL_MS', { HUB_PUSH_INTERVAL_MS: '1001' }],
    ['HUB_PUSH_INTERVAL_MS', { HUB_PUSH_INTERVAL_MS: '50.5' }],
    ['HUB_PUSH_INTERVAL_MS', { HUB_PUSH_INTERVAL_MS: 'fast' }],
    ['HISTORY_RETENTION_DAYS', { HISTORY_RETENTION_DAYS: '0' }],
    ['HISTORY_RETENTION_DAYS', { HISTORY_RETENTION_DAYS: '-30' }],
    ['HISTORY_RETENTION_DAYS', { HISTORY_RETENTION_DAYS: '90.5' }],
    ['HISTORY_RETENTION_DAYS', { HISTORY_RETENTION_DAYS: 'six months' }],
    ['HISTORY_RETENTION_DAYS', { HISTORY_RETENTION_DAYS: '36501' }],
    ['IMPORT_MAX_CONCURRENT', { IMPORT_MAX_CONCURRENT: '0' }],
    ['IMPORT_MAX_CONCURRENT', { IMPORT_MAX_CONCURRENT: 'two' }],
    ['IMPORT_MAX_INFLATED_MB', { IMPORT_MAX_INFLATED_MB: '0' }],
    ['IMPORT_MAX_SHARED_STRINGS', { IMPORT_MAX_SHARED_STRINGS: '10' }],
    ['IMPORT_MAX_SHARED_STRINGS_MB', { IMPORT_MAX_SHARED_STRINGS_MB: '1.5' }],
    ['IMPORT_WORKER_HEAP_MB', { IMPORT_WORKER_HEAP_MB: '16' }],
  ])('refuses a bad %s with a message naming it', (variable, env) => {
    const error = errorOf(env);
    expect(error.message).toMatch(new RegExp(`(^|\\s)${variable}:`, 'm'));
  });

  it('names every bad variable at once', () => {
    const error = errorOf({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(error.message).toContain('PORT:');
    expect(error.message).toContain('LOG_LEVEL:');
  });

  it('says how a DATABASE_URL must start and how long ADMIN_PASSWORD must be', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://x' }).message).toContain('postgres://');
    expect(errorOf({ ADMIN_PASSWORD: 'short' }).message).toContain('at least 8 characters');
    expect(errorOf({ TLS_KEY: '/k.pem' }).message).toContain('TLS_CERT and TLS_KEY must be set together');
  });

  it('says what HISTORY_RETENTION_DAYS takes', () => {
    expect(errorOf({ HISTORY_RETENTION_DAYS: 'six months' }).message).toContain(
      'HISTORY_RETENTION_DAYS: must be a whole number of days (1-36500)',
    );
    expect(errorOf({ HISTORY_RETENTION_DAYS: '0' }).message).toContain(
      'HISTORY_RETENTION_DAYS: must be at least 1 day',
    );
  });

  it('says what HUB_PUSH_INTERVAL_MS takes', () => {
    expect(errorOf({ HUB_PUSH_INTERVAL_MS: 'fast' }).message).toContain(
      'HUB_PUSH_INTERVAL_MS: must be a whole number of milliseconds (20-1000)',
    );
    expect(errorOf({ HUB_PUSH_INTERVAL_MS: '5' }).message).toContain('HUB_PUSH_INTERVAL_MS: must be at least 20 ms');
  });

  it('never puts the rejected ADMIN_PASSWORD into the message', () => {
    expect(errorOf({ ADMIN_PASSWORD: 'pw123' }).message).not.toContain('pw123');
  });
});
