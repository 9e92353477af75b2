import { HUB_PATH } from '@intercom/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FuncService } from './funcService.js';
import type { HubOptions } from './hubOptions.js';
import { hubRoutes } from './hubRoutes.js';
import { HubServer } from './hubServer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SignalR hub `/FuncService`: its connections, and closing them. */
    hub: HubServer;
  }
}

export interface RealtimePluginOptions {
  hub?: Partial<HubOptions>;
}

/**
 * The hub `/FuncService` (DESIGN.md section 6) over `app.deps.realtime`. Needs @fastify/websocket
 * registered first. On close, every hub client is told to reconnect before the server stops.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance, options: RealtimePluginOptions) => {
    const { deps } = app;
    deps.realtime.reportErrorsTo((error, context) => app.log.error({ err: error }, context));
    const sessionPolicy = { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs };
    const hub = new HubServer(
      { db: deps.db, bus: deps.realtime.bus, sessionPolicy, log: app.log, clock: deps.clock },
      options.hub,
    );
    const funcService = new FuncService(hub, deps.realtime.live, deps.clock, (age) =>
      deps.metrics.livePushAge.observe(age),
    );
    app.decorate('hub', hub);
    deps.metrics.read('intercom_hub_connections', 'SignalR hub connections on this instance', () => hub.size);
    deps.metrics.read(
      'intercom_hub_pending_chars',
      'Characters queued for hub clients and not yet taken by their transports (slow consumers)',
      () => hub.connections().reduce((sum, connection) => sum + connection.pendingChars, 0),
    );
    app.addHook('preClose', async () => {
      await hub.close();
      funcService.close();
    });
    await app.register(hubRoutes, { hub, deps, path: HUB_PATH });
  },
  { name: 'realtime', dependencies: ['@fastify/websocket'] },
);
