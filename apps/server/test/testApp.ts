import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.js';
import type { AppDeps } from '../src/appDeps.js';
import { DEMO_ADMIN, DEMO_CODE, seedFirstRun } from '../src/auth/seedFirstRun.js';
import { loadConfig } from '../src/config.js';
import type { Clock } from '../src/core/clock.js';
import { createDeps, type Runtime } from '../src/createDeps.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { DB } from '../src/db/schema.js';
import type { RealtimeOptions } from '../src/live/realtime.js';

/** The DEMO admin's password in every test app. */
export const ADMIN_PASSWORD = 'Admin#2026pw';
/** scrypt cost of test hashes: 2^10 keeps a login in the low milliseconds. */
export const TEST_LOG_N = 10;

/** The one way a server test builds the whole server; `close()` leaves nothing behind. */
export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: Kysely<DB>;
  dialect: AppDeps['dialect'];
  /** The DEMO enterprise and its admin account, as seeded. */
  demo: { E_ID: number; A_ID: number; code: string; username: string; password: string };
  /** `http://127.0.0.1:<port>` when built with `listen`; undefined for an app reached by `app.inject`. */
  origin: string | undefined;
  close(): Promise<void>;
}

export interface TestAppOptions extends Pick<BuildOptions, 'logger' | 'hub' | 'terminals' | 'talk'> {
  /** Extra environment for loadConfig (strings, as the real environment has). */
  env?: Record<string, string>;
  /** A built console to serve (a directory with index.html). */
  consoleDir?: string;
  /** A built field app to serve at /field (a directory with index.html). */
  fieldDir?: string;
  /** Listen on 127.0.0.1, port 0, for tests that open sockets (hub, terminals); else inject only. */
  listen?: boolean;
  realtime?: RealtimeOptions;
  /** The time the app's timing rules read (default: the system's); a FakeClock lets a test move it. */
  clock?: Clock;
  /** A PostgreSQL database shared with other apps (made and dropped by the caller). */
  sharedDatabaseUrl?: string;
  /** A data directory (its SQLite file) shared with other apps in this process (made and removed by the caller). */
  sharedDataDir?: string;
}

/** How long a closed app's PostgreSQL connections may take to go away before the drop forces them out. */
const CONNECTIONS_CLOSE_MS = 10_000;

/**
 * A fresh, empty PostgreSQL database. `drop()` first waits until no connection to it is left:
 * pg's `pool.end()` (Kysely's `destroy()`) resolves as soon as it has asked each connection to
 * end, before the sockets close, and a forced drop would then terminate backends that are still
 * saying goodbye. A connection still open after CONNECTIONS_CLOSE_MS is a leak: forced out, and reported.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `intercom_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedTemplate(adminUrl) : null;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      const openConnections = async () => {
        const found = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        return found.rows[0]?.n ?? 0;
      };
      let open: number;
      try {
        const deadline = Date.now() + CONNECTIONS_CLOSE_MS;
        while ((open = await openConnections()) > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
      if (open > 0)
        throw new Error(`${open} connection(s) to ${name} still open ${CONNECTIONS_CLOSE_MS} ms after close`);
    },
  };
}

/** This process's migrated template (one per migration set and day: migrations make each day's history partitions). */
let template: Promise<string> | undefined;

/**
 * The name of a PostgreSQL database migrated to the latest schema and nothing else, made once for
 * every test process of a run (the first to want it makes it, under an advisory lock, and the rest
 * find it): a test's database is a copy (`CREATE DATABASE ... TEMPLATE`), which costs a fraction of
 * migrating. It is built under another name and renamed when complete, so a process killed halfway
 * leaves no broken template; templates of other migration sets or days are dropped.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= (async () => {
    const migrations = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
    const hash = createHash('sha256');
    for (const file of fs.readdirSync(migrations).sort())
      hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    const name = `intercom_tpl_${day}_${hash.digest('hex').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_${process.pid}`;
        await admin.query(`drop database if exists "${building}"`);
        await admin.query(`create database "${building}"`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const database = openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
        try {
          await migrateToLatest(database.db);
        } finally {
          await database.close();
        }
        await admin.query(`alter database "${building}" rename to "${name}"`);
      }
      const stale = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'intercom_tpl_%' and datname <> $1`,
        [name],
      );
      // Another run may still copy an older one: it stays until nobody uses it.
      for (const { datname } of stale.rows)
        await admin.query(`drop database if exists "${datname}"`).catch(() => undefined);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
      await admin.end();
    }
    return name;
  })();
  return template;
}

/** This process's migrated in-memory SQLite database, serialized: each app starts from a copy. */
let sqliteImage: Promise<Buffer> | undefined;

/**
 * A migrated SQLite database as an image (SQLite's serialize), made once per test process. An app
 * started from a copy took 149 ms instead of 260 (the migrations were the difference); the server's
 * suite builds about 160 in-memory apps (issue 50).
 */
function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await migrateToLatest(db);
      return sqlite.serialize();
    } finally {
      await db.destroy();
    }
  })();
  return sqliteImage;
}

/** The advisory lock under which test processes make the template (any number the tests use for nothing else). */
const TEMPLATE_LOCK = 7_301_226;

/**
 * Builds the whole server on a clean database: SQLite in memory, or a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set. Migrated, with the DEMO enterprise seeded (admin / ADMIN_PASSWORD).
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.sharedDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-server-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres =
    options.sharedDatabaseUrl === undefined && adminUrl
      ? await createPostgresDatabase(adminUrl, { migrated: true })
      : undefined;
  const databaseUrl = options.sharedDatabaseUrl ?? postgres?.url;
  let runtime: Runtime | undefined;
  let app: FastifyInstance | undefined;
  let closed = false;
  // The order of main.ts's shutdown: sockets first, then the app, the realtime bus and the database.
  const close = async () => {
    if (closed) return;
    closed = true;
    if (app) {
      await app.terminals.close();
      await app.hub.close();
      // fetch can leave a socket that never sends a request; Node would wait its headers timeout.
      app.server.closeAllConnections();
      await app.close();
    }
    await runtime?.deps.realtime.close();
    await runtime?.database.close();
    await postgres?.drop();
    if (!options.sharedDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'silent',
        LOGIN_IP_LIMIT_PER_MINUTE: '100000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...options.env,
      },
      options.consoleDir,
      options.fieldDir,
    );
    const inMemory = !databaseUrl && !options.sharedDataDir;
    runtime = await createDeps(config, {
      sqliteFile: options.sharedDataDir ? 'intercom.sqlite' : ':memory:',
      ...(inMemory ? { sqliteImage: await migratedSqliteImage() } : {}),
      passwordLogN: TEST_LOG_N,
      ...(options.realtime ? { realtime: options.realtime } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await seedFirstRun(runtime.deps.db, config.adminPassword, runtime.deps.passwordLogN);
    const { logger, hub, terminals, talk } = options;
    app = await buildApp(runtime.deps, {
      ...(logger !== undefined ? { logger } : {}),
      ...(hub ? { hub } : {}),
      ...(terminals ? { terminals } : {}),
      ...(talk ? { talk } : {}),
    });
    let origin: string | undefined;
    if (options.listen) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (typeof address !== 'object' || !address) throw new Error('the test app has no port');
      origin = `http://127.0.0.1:${address.port}`;
    } else {
      await app.ready();
    }
    const { deps } = runtime;
    const enterprise = await deps.db
      .selectFrom('enterprise')
      .select(['E_ID', 'A_ID'])
      .where('E_Code', '=', DEMO_CODE)
      .executeTakeFirstOrThrow();
    return {
      app,
      deps,
      db: deps.db,
      dialect: deps.dialect,
      demo: {
        E_ID: enterprise.E_ID,
        A_ID: Number(enterprise.A_ID),
        code: DEMO_CODE,
        username: DEMO_ADMIN,
        password: ADMIN_PASSWORD,
      },
      origin,
      close,
    };
  } catch (error) {
    // Leave nothing behind: a half-built app must not keep a PostgreSQL database alive.
    await close();
    throw error;
  }
}
