import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HUB_PATH, TERMINAL_PATH } from '@intercom/contract';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/createDeps.js';
import { DEMO_CODE, seedFirstRun } from '../../src/db/seedFirstRun.js';
import type { TerminalOptions } from '../../src/terminals/terminalOptions.js';
import { ADMIN_PASSWORD, TEST_LOG_N, createPostgresDatabase, login } from '../helper.js';
import { FAST_HUB } from '../realtime/hubTestApp.js';
import { createTerminalUser, type NewTerminalUser, type TerminalTestApp } from './terminalTestApp.js';

// The real Redis of this machine and CI (.ci/run starts it), as in redisBus.test.ts.
export const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

/**
 * Two server instances in the scale-out mode: both on one Redis under a prefix of their own (so
 * parallel runs never meet). With TEST_DATABASE_URL both use one fresh PostgreSQL database, as
 * production does; without it each has its own in-memory SQLite database, seeded the same way, and
 * `user` creates the terminal user in both with the same ids (events name users by E_ID and U_ID).
 */
export interface ScaleOut {
  a: TerminalTestApp;
  b: TerminalTestApp;
  shared: boolean;
  /** One terminal user both instances know, with the same E_ID, U_ID and phone. */
  user(input?: Partial<NewTerminalUser>): Promise<{ U_ID: number; phone: string; E_ID: number }>;
  close(): Promise<void>;
}

async function startInstance(
  terminals: Partial<TerminalOptions>,
  env: Record<string, string>,
  redisPrefix: string,
): Promise<TerminalTestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-scale-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    LOGIN_IP_LIMIT_PER_MINUTE: '100000',
    REDIS_URL,
    ...env,
  });
  const { deps, database } = await createDeps(config, {
    sqliteFile: ':memory:',
    passwordLogN: TEST_LOG_N,
    realtime: { redisPrefix },
  });
  await seedFirstRun(deps.db, config.adminPassword, deps.passwordLogN);
  const app = await buildApp(deps, { hub: FAST_HUB, terminals });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const enterprise = await deps.db
    .selectFrom('enterprise')
    .select(['E_ID', 'A_ID'])
    .where('E_Code', '=', DEMO_CODE)
    .executeTakeFirstOrThrow();
  const demo = {
    E_ID: enterprise.E_ID,
    A_ID: Number(enterprise.A_ID),
    code: DEMO_CODE,
    username: 'admin',
    password: ADMIN_PASSWORD,
  };
  const tokens = await login(app, { username: demo.username, password: demo.password, code: demo.code });
  let closed = false;
  return {
    app,
    deps,
    db: deps.db,
    dialect: deps.dialect,
    demo,
    origin,
    hubUrl: `${origin}${HUB_PATH}`,
    hub: app.hub,
    live: deps.realtime.live,
    adminToken: tokens.access_token,
    terminalUrl: `ws://127.0.0.1:${port}${TERMINAL_PATH}`,
    terminals: app.terminals,
    async close() {
      if (closed) return;
      closed = true;
      await app.terminals.close();
      await app.hub.close();
      app.server.closeAllConnections();
      await app.close();
      await deps.realtime.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startScaleOut(terminals: Partial<TerminalOptions>): Promise<ScaleOut> {
  const prefix = `intercom:test:${randomUUID()}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres = adminUrl ? await createPostgresDatabase(adminUrl) : undefined;
  const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.url } : {};
  // One after the other: the second instance finds the shared database migrated and seeded.
  const a = await startInstance(terminals, env, prefix);
  const b = await startInstance(terminals, env, prefix);
  return {
    a,
    b,
    shared: Boolean(postgres),
    async user(input = {}) {
      const first = await createTerminalUser(a, { E_ID: a.demo.E_ID, ...input });
      if (postgres) return first;
      const second = await createTerminalUser(b, { E_ID: b.demo.E_ID, ...input, phone: first.phone });
      if (second.U_ID !== first.U_ID || second.E_ID !== first.E_ID) {
        throw new Error(`the instances' databases diverged: ${JSON.stringify({ first, second })}`);
      }
      return first;
    },
    async close() {
      await Promise.all([a.close(), b.close()]);
      await postgres?.drop();
    },
  };
}
