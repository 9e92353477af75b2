import { Code, MessageKeys } from '@intercom/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/AppError.js';
import { syncPlugin } from '../http/syncPlugin.js';
import { authenticate } from './authenticate.js';

/** The only /api routes that answer without a token. */
export const PUBLIC_API_ROUTES: readonly string[] = [
  '/api/UAuth/PublicKey',
  '/api/UAuth/Login',
  '/api/UAuth/Refresh',
  '/api/UAuth/ICP',
  '/api/Media/Image/:name',
  '/api/Media/Play/:ticket',
  // The talk agent's package: a download link and the agent's self-update carry no token; it holds no secret.
  '/api/Plugin/Package',
  // OsmAnd / Traccar Client trackers have no session; the id must name a user, and it is rate-limited.
  '/api/osmand',
];

export function isPublicApiRoute(url: string): boolean {
  return PUBLIC_API_ROUTES.includes(url) || url === '/api/docs' || url.startsWith('/api/docs/');
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/**
 * Authentication, tenancy scope and role checks for the whole /api scope, in one place
 * (DESIGN.md section 5): handlers never check a token or a role by hand.
 */
export const authPlugin = fp(
  syncPlugin((app: FastifyInstance) => {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      const route = request.routeOptions.url;
      if (!route?.startsWith('/api/') || isPublicApiRoute(route)) return;
      const auth = await authenticate(app.deps, bearerToken(request));
      if (request.routeOptions.config.adminOnly && auth.account.Role !== 'admin') throw AppError.forbidden();
      request.auth = auth;
    });
  }),
);

/** The caller of a route that the auth hook has let through. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new AppError(Code.TokenMissing, MessageKeys.tokenMissing);
  return request.auth;
}
