import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HubOptions } from '../../src/hub/hubOptions.js';
import { createPostgresDatabase } from '../helper.js';
import { startHubApp, type HubTestApp } from './hubTestApp.js';

// The real Redis of this machine and CI (.ci/run starts it), as in redisBus.redis.test.ts.
export const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

/**
 * Two listening instances on one Redis (a prefix of their own) and one database: PostgreSQL with
 * TEST_DATABASE_URL, else one SQLite file both open, so a session made on one is valid on the other.
 */
export interface HubPair {
  a: HubTestApp;
  b: HubTestApp;
  prefix: string;
  close(): Promise<void>;
}

export async function startHubPair(hub: Partial<HubOptions>, env: Record<string, string> = {}): Promise<HubPair> {
  const prefix = `intercom:test:${randomUUID()}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres = adminUrl ? await createPostgresDatabase(adminUrl, { migrated: true }) : undefined;
  const dir = postgres ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-hub-pair-'));
  const shared = {
    env: { REDIS_URL, ...env },
    realtime: { redisPrefix: prefix },
    ...(postgres ? { sharedDatabaseUrl: postgres.url } : { sharedDataDir: dir }),
  };
  // One after the other: the second instance finds the database migrated and seeded.
  const a = await startHubApp(hub, shared);
  const b = await startHubApp(hub, shared);
  return {
    a,
    b,
    prefix,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await postgres?.drop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
