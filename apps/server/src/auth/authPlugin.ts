import { Code, MessageKeys, roleSchema } from '@intercom/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/AppError.js';
import { loadWorkingScope } from '../tenancy/scope.js';
import { endSession, resolveSession } from './sessions.js';

/** The only /api routes that answer without a token. */
export const PUBLIC_API_ROUTES: readonly string[] = [
  '/api/UAuth/PublicKey',
  '/api/UAuth/Login',
  '/api/UAuth/Refresh',
  '/api/UAuth/ICP',
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
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || isPublicApiRoute(route)) return;
    const { db, config } = app.deps;
    const policy = { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
    const session = await resolveSession(db, policy, bearerToken(request));
    const account = await db
      .selectFrom('account')
      .select(['A_ID', 'E_ID', 'LoginName', 'Name', 'Role', 'Disabled'])
      .where('A_ID', '=', session.A_ID)
      .executeTakeFirst();
    if (!account || account.Disabled) {
      await endSession(db, session.S_ID, 'frozen');
      throw new AppError(Code.SessionEnded, MessageKeys.sessionEnded);
    }
    const role = roleSchema.catch('editor').parse(account.Role);
    if (request.routeOptions.config.adminOnly && role !== 'admin') throw AppError.forbidden();
    request.auth = {
      session,
      account: { A_ID: account.A_ID, E_ID: account.E_ID, LoginName: account.LoginName, Name: account.Name, Role: role },
      scope: await loadWorkingScope(db, account.E_ID, session.WorkingE_ID),
    };
  });
});

/** The caller of a route that the auth hook has let through. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new AppError(Code.TokenMissing, MessageKeys.tokenMissing);
  return request.auth;
}
