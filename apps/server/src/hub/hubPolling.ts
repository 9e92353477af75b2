import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HubConnection } from './hubConnection.js';
import { text, type HubAccess } from './hubHttp.js';
import type { TransportKind } from './hubOptions.js';
import type { HubServer } from './hubServer.js';
import { LongPollingSink, ServerSentEventsSink } from './transports.js';

/**
 * The HTTP transports of a hub connection (notes/signalr-protocol.md sections 2 and 3): GET polls
 * or opens the event stream, POST sends, DELETE ends a long-polling connection.
 */
export class HubPolling {
  constructor(
    private readonly hub: HubServer,
    private readonly access: HubAccess,
  ) {}

  async get(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const connection = await this.access.connectionFor(request, reply);
    if (!connection) return reply;
    const wantsEvents = (request.headers.accept ?? '').includes('text/event-stream');
    const sink = connection.sink;
    if (!sink) {
      if (connection.claimed) return text(reply, 409, 'A WebSocket is connecting for this connection');
      const transport: TransportKind = wantsEvents ? 'ServerSentEvents' : 'LongPolling';
      if (!this.hub.options.transports.includes(transport)) return text(reply, 404, `${transport} is not offered here`);
      if (wantsEvents) return startEventStream(connection, request, reply);
      connection.attach(new LongPollingSink(this.hub.options.pollTimeoutMs, this.hub.clock));
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

  async post(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const connection = await this.access.connectionFor(request, reply);
    if (!connection) return reply;
    if (connection.transport === 'WebSockets') return text(reply, 405, 'This connection sends over its WebSocket');
    if (connection.state !== 'open') return text(reply, 404, 'The connection has ended');
    const body: unknown = request.body;
    connection.receive(typeof body === 'string' || Buffer.isBuffer(body) ? body : '');
    return text(reply, 200);
  }

  async delete(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const connection = await this.access.connectionFor(request, reply);
    if (!connection) return reply;
    if (connection.transport !== null && connection.transport !== 'LongPolling') {
      return text(reply, 400, 'Cannot terminate this connection using the DELETE endpoint');
    }
    connection.dispose('deleted by the client');
    return text(reply, 202);
  }
}

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
