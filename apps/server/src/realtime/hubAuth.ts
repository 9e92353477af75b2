import { Code, MessageKeys, roleSchema } from '@intercom/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, AuthContext } from '../appDeps.js';
import { bearerToken } from '../auth/authPlugin.js';
import { endSession, resolveSession } from '../auth/sessions.js';
import { AppError } from '../http/AppError.js';
import { loadWorkingScope } from '../tenancy/scope.js';

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

/**
 * A token to its session, account and scope, exactly as the /api auth hook resolves it (same
 * session rules, frozen accounts end their session, the session's working enterprise), or the
 * AppError a REST call with that token would get.
 */
export async function authenticateHub(deps: AppDeps, token: string | undefined): Promise<AuthContext> {
  const { db, config } = deps;
  const policy = { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
  const session = await resolveSession(db, policy, token);
  const account = await db
    .selectFrom('account')
    .select(['A_ID', 'E_ID', 'LoginName', 'Name', 'Role', 'Disabled'])
    .where('A_ID', '=', session.A_ID)
    .executeTakeFirst();
  if (!account || account.Disabled) {
    await endSession(db, session.S_ID, 'frozen');
    throw new AppError(Code.SessionEnded, MessageKeys.sessionEnded);
  }
  return {
    session,
    account: {
      A_ID: account.A_ID,
      E_ID: account.E_ID,
      LoginName: account.LoginName,
      Name: account.Name,
      Role: roleSchema.catch('editor').parse(account.Role),
    },
    scope: await loadWorkingScope(db, account.E_ID, session.WorkingE_ID),
  };
}
