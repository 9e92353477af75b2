import { randomUUID } from 'node:crypto';
import type { TalkOptions } from '../../src/talk/talkService.js';
import type { TerminalOptions } from '../../src/terminals/terminalOptions.js';
import { createPostgresDatabase } from '../helper.js';
import { FAST_HUB } from '../hub/hubTestApp.js';
import { createTerminalUser, startTerminalApp, type NewTerminalUser, type TerminalTestApp } from './terminalTestApp.js';

// The real Redis of this machine and CI (.ci/run starts it), as in redisBus.redis.test.ts.
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
  /** The Redis prefix of both instances (`<prefix>:realtime`, ...). */
  prefix: string;
  /** One terminal user both instances know, with the same E_ID, U_ID and phone. */
  user(input?: Partial<NewTerminalUser>): Promise<{ U_ID: number; phone: string; E_ID: number }>;
  /** A further instance on the same Redis and database, started now (the caller closes it). */
  another(): Promise<TerminalTestApp>;
  close(): Promise<void>;
}

/** One instance: a terminal test app on the shared Redis (and the shared database, if any). */
function startInstance(
  terminals: Partial<TerminalOptions>,
  sharedDatabaseUrl: string | undefined,
  redisPrefix: string,
  talk: Partial<TalkOptions>,
): Promise<TerminalTestApp> {
  return startTerminalApp(terminals, FAST_HUB, { REDIS_URL }, { realtime: { redisPrefix }, sharedDatabaseUrl, talk });
}

export async function startScaleOut(
  terminals: Partial<TerminalOptions>,
  talk: Partial<TalkOptions> = {},
): Promise<ScaleOut> {
  const prefix = `intercom:test:${randomUUID()}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgres = adminUrl ? await createPostgresDatabase(adminUrl, { migrated: true }) : undefined;
  // One after the other: the second instance finds the shared database migrated and seeded.
  const a = await startInstance(terminals, postgres?.url, prefix, talk);
  const b = await startInstance(terminals, postgres?.url, prefix, talk);
  return {
    a,
    b,
    shared: Boolean(postgres),
    prefix,
    async user(input = {}) {
      const first = await createTerminalUser(a, { E_ID: a.demo.E_ID, ...input });
      if (postgres) return first;
      const second = await createTerminalUser(b, { E_ID: b.demo.E_ID, ...input, phone: first.phone });
      if (second.U_ID !== first.U_ID || second.E_ID !== first.E_ID) {
        throw new Error(`the instances' databases diverged: ${JSON.stringify({ first, second })}`);
      }
      return first;
    },
    another: () => startInstance(terminals, postgres?.url, prefix, talk),
    async close() {
      await Promise.all([a.close(), b.close()]);
      await postgres?.drop();
    },
  };
}
