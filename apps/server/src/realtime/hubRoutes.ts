import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppDeps } from '../appDeps.js';
import type { AuthContext } from '../auth/authContext.js';
import { AppError } from '../http/AppError.js';
import { authenticate } from '../auth/authenticate.js';
import { hubToken } from './hubAuth.js';
import type { HubConnection } from './hubConnection.js';
import type { TransportKind } from './hubOptions.js';
import type { HubServer } from './hubServer.js';
import { LongPollingSink, ServerSentEventsSink, WebSocketSink } from './transports.js';

export interface HubRoutesOptions {
  hub: HubServer;
  deps: AppDeps;
  path: string;
}

/** A token that proved itself on this connection is trusted again for this long without a query. */
const TOKEN_RECHECK_MS = 5_000;

function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function text(reply: FastifyReply, status: number, body = ''): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(body);
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * The SignalR transports of one hub path (notes/signalr-protocol.md sections 1 to 4): negotiate,
 * long polling (GET/POST/DELETE), Server-Sent Events (GET with Accept: text/event-stream) and
 * WebSockets (GET upgrade), all behind the same session tokens as the REST API.
 */
export async function hubRoutes(app: FastifyInstance, { hub, deps, path }: HubRoutesOptions): Promise<void> {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  const upgrades = new WeakMap<FastifyRequest, HubConnection>();
  const offered = (transport: TransportKind) => hub.options.transports.includes(transport);
  // Polls arrive several times a second per client: keep them out of the info log.
  const logLevel = 'warn';

  async function principalOf(request: FastifyRequest, reply: FastifyReply): Promise<AuthContext | undefined> {
    try {
      return await authenticate(deps, hubToken(request));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      reply
        .code(error.status)
        .header('www-authenticate', 'Bearer')
        .send({ BaseResult: { Code: error.code, Message: error.message } });
      return undefined;
    }
  }

  /** The connection named by `?id=`, checked against the caller's token; else the reply is sent. */
  async function connectionFor(request: FastifyRequest, reply: FastifyReply): Promise<HubConnection | undefined> {
    const token = hubToken(request);
    const id = queryValue(request, 'id');
    const known = id ? hub.get(id) : undefined;
    if (known && token && known.verifiedToken === token && Date.now() - known.verifiedAt < TOKEN_RECHECK_MS) {
      known.active = true;
      return known;
    }
    const principal = await principalOf(request, reply);
    if (!principal) return undefined;
    if (!id) {
      text(reply, 400, 'Connection ID required');
      return undefined;
    }
    const connection = hub.get(id);
    if (!connection) {
      text(reply, 404, 'No Connection with that ID');
      return undefined;
    }
    if (connection.principal.account.A_ID !== principal.account.A_ID) {
      text(reply, 403, 'The connection belongs to another user');
      return undefined;
    }
    connection.verifiedToken = token;
    connection.verifiedAt = Date.now();
    connection.active = true;
    return connection;
  }

  app.post(`${path}/negotiate`, { schema: { hide: true }, logLevel }, async (request, reply) => {
    if (hub.isClosing) return text(reply, 503);
    const principal = await principalOf(request, reply);
    if (!principal) return reply;
    const requested = Number(queryValue(request, 'negotiateVersion') ?? 0);
    const version = Number.isInteger(requested) && requested >= 1 ? 1 : 0;
    const connection = hub.create(principal, version);
    if (!connection) return text(reply, 429, 'Too many hub connections for this session');
    connection.verifiedToken = hubToken(request);
    connection.verifiedAt = Date.now();
    return reply.code(200).header('cache-control', 'no-store').send(hub.negotiateBody(connection, version));
  });

  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: `${path}/negotiate`,
    schema: { hide: true },
    logLevel,
    handler: async (_request, reply) => text(reply.header('allow', 'POST'), 405),
  });

  function startEventStream(connection: HubConnection, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    request.raw.socket.setNoDelay(true);
    // EventSource opens on the first bytes; the client's start() waits for that.
    res.write(':\r\n');
    res.on('drain', () => connection.pump());
    res.on('close', () => connection.dispose('event stream closed'));
    connection.attach(new ServerSentEventsSink(res));
    return reply;
  }

  async function httpGet(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const connection = await connectionFor(request, reply);
    if (!connection) return reply;
    const wantsEvents = (request.headers.accept ?? '').includes('text/event-stream');
    const sink = connection.sink;
    if (!sink) {
      if (connection.claimed) return text(reply, 409, 'A WebSocket is connecting for this connection');
      const transport: TransportKind = wantsEvents ? 'ServerSentEvents' : 'LongPolling';
      if (!offered(transport)) return text(reply, 404, `${transport} is not offered here`);
      if (wantsEvents) return startEventStream(connection, request, reply);
      connection.attach(new LongPollingSink(hub.options.pollTimeoutMs));
      // The first poll answers at once and empty: the client discards what it carries.
      return reply.code(200).type('application/octet-stream').send('');
    }
    if (sink instanceof LongPollingSink && !wantsEvents) {
      sink.hold(request, reply);
      connection.pump();
      return reply;
    }
    if (sink.kind === 'ServerSentEvents' && wantsEvents) return text(reply, 409, 'The event stream is already open');
    return text(reply, 400, 'Cannot change transports mid-connection');
  }

  /** Runs before the upgrade, so a refusal is a plain HTTP status the client can read. */
  async function beforeUpgrade(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (hub.isClosing) {
      text(reply, 503);
      return;
    }
    if (!offered('WebSockets')) {
      text(reply, 404, 'WebSockets is not offered here');
      return;
    }
    if (queryValue(request, 'id') === undefined) {
      // skipNegotiation: the connection starts with the upgrade.
      const principal = await principalOf(request, reply);
      if (!principal) return;
      const connection = hub.create(principal);
      if (!connection) {
        text(reply, 429, 'Too many hub connections for this session');
        return;
      }
      connection.claimed = true;
      upgrades.set(request, connection);
      return;
    }
    const connection = await connectionFor(request, reply);
    if (!connection) return;
    if (connection.sink || connection.claimed) {
      text(reply, 409, 'The connection already has a transport');
      return;
    }
    connection.claimed = true;
    upgrades.set(request, connection);
  }

  function acceptWebSocket(socket: WebSocket, request: FastifyRequest): void {
    const connection = upgrades.get(request);
    upgrades.delete(request);
    if (!connection || connection.state !== 'open') {
      socket.close(1000);
      return;
    }
    socket.on('message', (data) => connection.receive(textOf(data)));
    socket.on('close', () => connection.dispose('websocket closed'));
    connection.attach(new WebSocketSink(socket, () => connection.pump()));
  }

  app.route({
    method: 'GET',
    url: path,
    schema: { hide: true },
    logLevel,
    preHandler: async (request, reply) => {
      if (request.ws) await beforeUpgrade(request, reply);
    },
    handler: httpGet,
    wsHandler: acceptWebSocket,
  });

  app.post(
    path,
    { schema: { hide: true }, logLevel, bodyLimit: Math.max(1024 * 1024, hub.options.maxMessageChars * 4) },
    async (request, reply) => {
      const connection = await connectionFor(request, reply);
      if (!connection) return reply;
      if (connection.transport === 'WebSockets') return text(reply, 405, 'This connection sends over its WebSocket');
      if (connection.state !== 'open') return text(reply, 404, 'The connection has ended');
      const body: unknown = request.body;
      connection.receive(typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : '');
      return text(reply, 200);
    },
  );

  app.delete(path, { schema: { hide: true }, logLevel }, async (request, reply) => {
    const connection = await connectionFor(request, reply);
    if (!connection) return reply;
    if (connection.transport !== null && connection.transport !== 'LongPolling') {
      return text(reply, 400, 'Cannot terminate this connection using the DELETE endpoint');
    }
    connection.dispose('deleted by the client');
    return text(reply, 202);
  });
}
