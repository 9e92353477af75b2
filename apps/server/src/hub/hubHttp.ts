import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { AuthContext } from '../auth/authContext.js';
import { authenticate } from '../auth/authenticate.js';
import { AppError } from '../http/AppError.js';
import { hubToken } from './hubAuth.js';
import type { HubConnection } from './hubConnection.js';
import type { HubServer } from './hubServer.js';

/** A token that proved itself on this connection is trusted again for this long without a query. */
const TOKEN_RECHECK_MS = 5_000;

export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The plain-text answers of the SignalR transports (status codes as ASP.NET Core sends them). */
export function text(reply: FastifyReply, status: number, body = ''): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(body);
}

/** Who calls the hub, and which of the hub's connections a request addresses. */
export class HubAccess {
  constructor(
    private readonly hub: HubServer,
    private readonly deps: AppDeps,
  ) {}

  /** The caller of a valid session token; else the 401 envelope is sent and undefined returned. */
  async principalOf(request: FastifyRequest, reply: FastifyReply): Promise<AuthContext | undefined> {
    try {
      return await authenticate(this.deps, hubToken(request));
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
  async connectionFor(request: FastifyRequest, reply: FastifyReply): Promise<HubConnection | undefined> {
    const token = hubToken(request);
    const id = queryValue(request, 'id');
    const known = id ? this.hub.get(id) : undefined;
    if (
      known &&
      token &&
      known.verifiedToken === token &&
      this.deps.clock.now() - known.verifiedAt < TOKEN_RECHECK_MS
    ) {
      known.active = true;
      return known;
    }
    const principal = await this.principalOf(request, reply);
    if (!principal) return undefined;
    if (!id) {
      text(reply, 400, 'Connection ID required');
      return undefined;
    }
    const connection = this.hub.get(id);
    if (!connection) {
      text(reply, 404, 'No Connection with that ID');
      return undefined;
    }
    if (connection.principal.account.A_ID !== principal.account.A_ID) {
      text(reply, 403, 'The connection belongs to another user');
      return undefined;
    }
    connection.verifiedToken = token;
    connection.verifiedAt = this.deps.clock.now();
    connection.active = true;
    return connection;
  }
}
