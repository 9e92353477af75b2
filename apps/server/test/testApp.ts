import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.js';
import type { AppDeps } from '../src/appDeps.js';
import { DEMO_ADMIN, DEMO_CODE, seedFirstRun } from '../src/auth/seedFirstRun.js';
import { loadConfig } from '../src/config.js';
import { createDeps, type Runtime } from '../src/createDeps.js';
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
  /** Listen on 127.0.0.1, port 0, for tests that open sockets (hub, terminals); else inject only. */
  listen?: boolean;
  realtime?: RealtimeOptions;
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
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `intercom_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
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

/**
 * Builds the whole server on a clean database: SQLite in memory, or a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set. Migrated, with the DEMO enterprise seeded (admin / ADMIN_PASSWORD).
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.sharedDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-server-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres =
    options.sharedDatabaseUrl === undefined && adminUrl ? await createPostgresDatabase(adminUrl) : undefined;
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
    );
    runtime = await createDeps(config, {
      sqliteFile: options.sharedDataDir ? 'intercom.sqlite' : ':memory:',
      passwordLogN: TEST_LOG_N,
      ...(options.realtime ? { realtime: options.realtime } : {}),
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
