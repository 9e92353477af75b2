import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { InProcessEventBus, type ErrorSink, type EventBus } from './eventBus.js';
import { LiveState } from './liveState.js';
import { connectRedisEventBus } from './redisEventBus.js';

/** The event bus and the live state: created with the other dependencies, fed by the terminal gateway. */
export interface Realtime {
  bus: EventBus;
  live: LiveState;
  /** Where failures inside listeners and the backplane are reported (the app logger, once it exists). */
  reportErrorsTo(sink: ErrorSink): void;
  close(): Promise<void>;
}

const toStderr: ErrorSink = (error, context) => {
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`realtime: ${context}: ${detail}\n`);
};

/** In-process bus by default; Redis pub/sub between instances when REDIS_URL is set. */
export async function createRealtime(config: Config, db: Kysely<DB>): Promise<Realtime> {
  let sink = toStderr;
  const onError: ErrorSink = (error, context) => sink(error, context);
  const bus = config.redisUrl ? await connectRedisEventBus(config.redisUrl, onError) : new InProcessEventBus(onError);
  const live = new LiveState(bus);
  await live.loadUnhandledNotifications(db);
  return {
    bus,
    live,
    reportErrorsTo(next) {
      sink = next;
    },
    async close() {
      live.close();
      await bus.close();
    },
  };
}
