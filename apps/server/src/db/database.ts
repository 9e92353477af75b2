import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { ensurePrivateDir, makePrivateFiles } from './privateFiles.js';
import type { DB } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

// BIGINT (epoch ms) and COUNT(*) come back from pg as strings; our values fit a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:' for tests. */
  sqliteFile?: string;
  /**
   * With ':memory:', the database to start from: an image from SQLite's serialize (tests start each
   * app from one migrated image instead of migrating every time).
   */
  sqliteImage?: Buffer;
}

/** Which database a Kysely instance speaks to. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter' ? 'postgres' : 'sqlite';
}

/** Opens PostgreSQL when a URL is given, else the embedded SQLite file (WAL, foreign keys on). */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that the server drops (restart, failover, admin kill) must not crash the
    // process: the pool replaces it on the next query.
    pool.on('error', (error) => process.stderr.write(`database connection lost: ${error.message}\n`));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? 'intercom.sqlite';
  let location = file;
  if (file !== ':memory:') {
    ensurePrivateDir(options.dataDir);
    location = path.join(options.dataDir, file);
    // SQLite gives the -wal and -shm files the database file's mode: create that one 0600 first.
    fs.closeSync(fs.openSync(location, 'a', 0o600));
  }
  const sqlite = new SQLite(file === ':memory:' && options.sqliteImage ? options.sqliteImage : location);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // Files made by an older version, or by a copy, may be readable by others.
  if (file !== ':memory:') makePrivateFiles(['', '-wal', '-shm', '-journal'].map((suffix) => `${location}${suffix}`));
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
