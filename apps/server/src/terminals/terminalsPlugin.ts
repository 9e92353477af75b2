import { OSMAND_PATH, TERMINAL_PATH } from '@intercom/contract';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { installErrorHandler } from '../http/errorHandler.js';
import { releaseUpgrade } from '../http/releaseUpgrade.js';
import { syncPlugin } from '../http/syncPlugin.js';
import { fastifyTrustProxy } from '../http/trustProxy.js';
import { registerOsmandRoutes } from './osmand.js';
import { TerminalGateway } from './terminalGateway.js';
import { terminalOptionsOf, type TerminalOptions } from './terminalOptions.js';
import { TerminalService } from './terminalService.js';

/** The terminal side of the server: the gateway, the shared ingest service, and the OsmAnd listener. */
export interface Terminals {
  service: TerminalService;
  gateway: TerminalGateway;
  /** Serves OsmAnd on its own port (`OSMAND_PORT`), at `/` and `/api/osmand`; returns the address. */
  listenOsmand(port: number, host: string): Promise<string>;
  /** An administrator changed location profiles of these enterprises: push the new configuration. */
  profileChanged(enterpriseIds?: readonly number[]): Promise<void>;
  /** Closes every terminal socket and writes every acknowledged fix; safe to call more than once. */
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    terminals: Terminals;
  }
}

export interface TerminalsPluginOptions {
  options?: Partial<TerminalOptions>;
}

/**
 * `/terminal` (WebSocket) and `/api/osmand` (HTTP, public). Needs @fastify/websocket and
 * `app.terminalEvents` (core/terminalEvents.ts): frozen, deleted or re-passworded users are closed
 * at once, and a changed GPS parameter or profile is pushed to the terminals it concerns, on
 * every instance (the events travel on the EventBus).
 */
export const terminalsPlugin = fp(
  syncPlugin((app: FastifyInstance, opts: TerminalsPluginOptions) => {
    const options = terminalOptionsOf(opts.options, app.deps.config.terminalLogin);
    const service = new TerminalService(app.deps, options, app.log);
    const gateway = new TerminalGateway(
      app.deps,
      service,
      options,
      app.log,
      app.talk.service,
      app.talk.authCodes,
      app.talk.video,
    );
    let osmandServer: FastifyInstance | undefined;
    let closed: Promise<void> | undefined;
    const logFailure = (error: unknown) => app.log.error({ err: error }, 'configuration push failed');

    const terminals: Terminals = {
      service,
      gateway,
      async listenOsmand(port, host) {
        osmandServer = Fastify({ logger: false, trustProxy: fastifyTrustProxy(app.deps.config.trustProxy) });
        osmandServer.setValidatorCompiler(validatorCompiler);
        osmandServer.setSerializerCompiler(serializerCompiler);
        installErrorHandler(osmandServer);
        await osmandServer.register(formbody);
        // Shared with the other instances like the console's per-IP limits (one tracker, one quota).
        const store = app.deps.realtime.rateLimitStore(app.log);
        await osmandServer.register(rateLimit, { global: false, ...(store ? { store } : {}) });
        registerOsmandRoutes(osmandServer, service, ['/', OSMAND_PATH]);
        return osmandServer.listen({ port, host });
      },
      async profileChanged(enterpriseIds) {
        service.profileChanged(enterpriseIds);
        await gateway.pushConfig({ enterpriseIds: enterpriseIds ?? [] });
      },
      close() {
        closed ??= (async () => {
          // Fixes queued now are acknowledged before the sockets close, so terminals need not resend them.
          await service.writer.flush().catch(() => undefined);
          gateway.close();
          await osmandServer?.close();
          await service.close();
        })();
        return closed;
      },
    };
    app.decorate('terminals', terminals);
    app.deps.metrics.read(
      'intercom_terminals_online',
      'Terminals logged in on this instance',
      () => gateway.counts.online,
    );
    app.deps.metrics.read(
      'intercom_terminal_sockets',
      'Open /terminal sockets on this instance',
      () => gateway.counts.sockets,
    );

    // Events of this instance and, with REDIS_URL, of every other one.
    const events = app.terminalEvents;
    const unsubscribe = [
      events.on('endSessions', (event) => gateway.endSessions(event)),
      events.on('usersChanged', (event) => {
        service.usersChanged(event.UserIDs);
        service.geofences.usersChanged(event.UserIDs);
        gateway.pushConfig({ userIds: event.UserIDs }).catch(logFailure);
      }),
      events.on('locationProfileChanged', (event) => void terminals.profileChanged([event.E_ID]).catch(logFailure)),
      events.on('geofencesChanged', ({ E_ID, U_ID }) =>
        U_ID === undefined ? service.geofences.changed(E_ID) : service.geofences.usersChanged([U_ID]),
      ),
    ];

    // Connections and logins are logged by the gateway; one line per upgrade would drown them.
    // While the instance drains (main.ts), an upgrade gets 503 instead of a socket closed at once:
    // the load balancer retries it on another instance and the terminal never sees the restart.
    const refuseWhileDraining = async (_request: FastifyRequest, reply: FastifyReply) => {
      if (app.draining) return reply.code(503).header('connection', 'close').send();
    };
    app.get(
      TERMINAL_PATH,
      { websocket: true, schema: { hide: true }, logLevel: 'warn', preHandler: refuseWhileDraining },
      (socket, request) => {
        const { ip } = request;
        // A terminal's socket lives for hours: it keeps nothing of its upgrade request.
        releaseUpgrade(socket, request.raw, (error) => {
          app.log.warn({ err: error, ip }, 'terminal socket error');
          socket.terminate();
        });
        gateway.accept(socket, ip);
      },
    );
    registerOsmandRoutes(app, service, [OSMAND_PATH]);

    app.addHook(
      'preClose',
      () =>
        new Promise<void>((resolve) => {
          gateway.close();
          resolve();
        }),
    );
    app.addHook('onClose', async () => {
      for (const off of unsubscribe) off();
      await terminals.close();
    });
  }),
  { name: 'terminals', dependencies: ['@fastify/websocket', 'talk'] },
);
