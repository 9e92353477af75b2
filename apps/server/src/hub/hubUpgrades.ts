import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { HubConnection } from './hubConnection.js';
import { queryValue, text, type HubAccess } from './hubHttp.js';
import type { HubServer } from './hubServer.js';
import { WebSocketSink } from './transports.js';

/** A frame's bytes, text or binary alike: the connection's protocol reads them. */
function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * The WebSocket transport (notes/signalr-protocol.md section 4): the request is checked before the
 * upgrade, so a refusal is a plain HTTP status the client can read; the socket then carries the
 * connection both ways.
 */
export class HubUpgrades {
  private readonly pending = new WeakMap<FastifyRequest, HubConnection>();

  constructor(
    private readonly hub: HubServer,
    private readonly access: HubAccess,
  ) {}

  async before(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (this.hub.isClosing) {
      text(reply, 503);
      return;
    }
    if (!this.hub.options.transports.includes('WebSockets')) {
      text(reply, 404, 'WebSockets is not offered here');
      return;
    }
    const connection =
      queryValue(request, 'id') === undefined
        ? await this.withoutNegotiation(request, reply)
        : await this.negotiated(request, reply);
    if (!connection) return;
    connection.claimed = true;
    this.pending.set(request, connection);
  }

  accept(socket: WebSocket, request: FastifyRequest): void {
    const connection = this.pending.get(request);
    this.pending.delete(request);
    if (!connection || connection.state !== 'open') {
      socket.close(1000);
      return;
    }
    socket.on('message', (data) => connection.receive(bytesOf(data)));
    socket.on('close', () => connection.dispose('websocket closed'));
    connection.attach(new WebSocketSink(socket, () => connection.pump()));
  }

  /** skipNegotiation: the connection starts with the upgrade. */
  private async withoutNegotiation(request: FastifyRequest, reply: FastifyReply) {
    const principal = await this.access.principalOf(request, reply);
    if (!principal) return undefined;
    const connection = this.hub.create(principal);
    if (!connection) text(reply, 429, 'Too many hub connections for this session');
    return connection;
  }

  private async negotiated(request: FastifyRequest, reply: FastifyReply) {
    const connection = await this.access.connectionFor(request, reply);
    if (!connection) return undefined;
    if (connection.sink || connection.claimed) {
      text(reply, 409, 'The connection already has a transport');
      return undefined;
    }
    return connection;
  }
}
