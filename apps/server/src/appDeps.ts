import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import type { LoginKey } from './auth/loginCrypto.js';
import type { AuthContext } from './auth/authContext.js';
import type { Clock } from './core/clock.js';
import type { Metrics } from './core/metrics.js';
import type { Realtime } from './live/realtime.js';

/** What every route plugin may use; decorated on the app as `app.deps`. */
export interface AppDeps {
  db: Kysely<DB>;
  dialect: Dialect;
  config: Config;
  loginKey: LoginKey;
  /** scrypt cost exponent for new password hashes (2^N). */
  passwordLogN: number;
  /** Event bus and live state of the hub; the terminal gateway feeds `realtime.live`. */
  realtime: Realtime;
  /** Prometheus metrics of this instance (/metrics). */
  metrics: Metrics;
  /** The time every timing rule reads (core/clock.ts): the system's, or a test's FakeClock. */
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Only the admin role may call the route (DESIGN.md section 5). */
    adminOnly?: boolean;
    /** Failures carry Code and Message at the top level too, as the login answers do (DESIGN.md section 4). */
    flatResult?: boolean;
  }
}
