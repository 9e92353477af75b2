import type {} from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { hubToken } from './hubAuth.js';
import { HubAccess, queryValue, text } from './hubHttp.js';
import { HubPolling } from './hubPolling.js';
import type { HubServer } from './hubServer.js';
import { syncPlugin } from '../http/syncPlugin.js';
import { HubUpgrades } from './hubUpgrades.js';

export interface HubRoutesOptions {
  hub: HubServer;
  deps: AppDeps;
  path: string;
}

/**
 * The SignalR transports of one hub path (notes/signalr-protocol.md sections 1 to 4): negotiate
 * (here), long polling and Server-Sent Events (hubPolling.ts) and WebSockets (hubUpgrades.ts), all
 * behind the same session tokens as the REST API (hubHttp.ts).
 */
export const hubRoutes = syncPlugin((app: FastifyInstance, { hub, deps, path }: HubRoutesOptions) => {
  // MessagePack clients post their binary messages as application/octet-stream.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  const access = new HubAccess(hub, deps);
  const polling = new HubPolling(hub, access);
  const upgrades = new HubUpgrades(hub, access);
  // Polls arrive several times a second per client: keep them out of the info log.
  const logLevel = 'warn';

  app.post(`${path}/negotiate`, { schema: { hide: true }, logLevel }, async (request, reply) => {
    if (hub.isClosing) return text(reply, 503);
    const principal = await access.principalOf(request, reply);
    if (!principal) return reply;
    const requested = Number(queryValue(request, 'negotiateVersion') ?? 0);
    const version = Number.isInteger(requested) && requested >= 1 ? 1 : 0;
    const connection = hub.create(principal, version);
    if (!connection) return text(reply, 429, 'Too many hub connections for this session');
    connection.verifiedToken = hubToken(request);
    connection.verifiedAt = deps.clock.now();
    return reply.code(200).header('cache-control', 'no-store').send(hub.negotiateBody(connection, version));
  });

  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: `${path}/negotiate`,
    schema: { hide: true },
    logLevel,
    handler: async (_request, reply) => text(reply.header('allow', 'POST'), 405),
  });

  app.route({
    method: 'GET',
    url: path,
    schema: { hide: true },
    logLevel,
    preHandler: async (request, reply) => {
      if (request.ws) await upgrades.before(request, reply);
    },
    handler: (request, reply) => polling.get(request, reply),
    wsHandler: (socket, request) => upgrades.accept(socket, request),
  });

  const bodyLimit = Math.max(1024 * 1024, hub.options.maxMessageChars * 4);
  app.post(path, { schema: { hide: true }, logLevel, bodyLimit }, (request, reply) => polling.post(request, reply));
  app.delete(path, { schema: { hide: true }, logLevel }, (request, reply) => polling.delete(request, reply));
});
