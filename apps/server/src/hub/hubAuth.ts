import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/authPlugin.js';

/**
 * The hub's token: `Authorization: Bearer` or, where a client cannot set headers (EventSource,
 * browser WebSockets), the `access_token` query parameter (notes/signalr-protocol.md section 2).
 */
export function hubToken(request: FastifyRequest): string | undefined {
  const header = bearerToken(request);
  if (header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.access_token;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
