import type { AppDeps } from './appDeps.js';
import { loadOrCreateLoginKey } from './auth/loginCrypto.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { Metrics } from './core/metrics.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createRealtime, type RealtimeOptions } from './live/realtime.js';
import { unhandledAlarms, unhandledEpisodeAlarms } from './modules/notify/index.js';

export interface Runtime {
  deps: AppDeps;
  database: Database;
}

/** Opens the database, migrates it and loads the login key: everything buildApp needs. */
export async function createDeps(
  config: Config,
  options: {
    sqliteFile?: string;
    sqliteImage?: Buffer;
    passwordLogN?: number;
    realtime?: RealtimeOptions;
    clock?: Clock;
  } = {},
): Promise<Runtime> {
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteFile: options.sqliteFile,
    sqliteImage: options.sqliteImage,
  });
  await migrateToLatest(database.db);
  const loginKey = await loadOrCreateLoginKey(database.db);
  const clock = options.clock ?? systemClock;
  const deps: AppDeps = {
    db: database.db,
    dialect: database.dialect,
    config,
    loginKey,
    passwordLogN: options.passwordLogN ?? 17,
    realtime: await createRealtime(
      config,
      { alarms: () => unhandledAlarms(database.db), episodes: () => unhandledEpisodeAlarms(database.db) },
      options.realtime,
      clock,
    ),
    metrics: new Metrics(),
    clock,
  };
  return { deps, database };
}
