import { Code, MessageKeys, roleSchema } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { EventBus } from '../bus/eventBus.js';
import { announceSessionsEnded } from '../bus/sessionEvents.js';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import type { AuthContext } from './authContext.js';
import { AppError } from '../http/AppError.js';
import { loadWorkingScope } from '../tenancy/scope.js';
import { endSession, resolveSession } from './sessions.js';

/** The part of AppDeps a token check needs (auth/ sits below appDeps.ts, so it names them). */
export interface AuthenticateDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'sessionIdleMs' | 'sessionAbsoluteMs'>;
  realtime: { bus: EventBus };
  /** The session's idle and absolute limits are judged at `clock.now()` (AppDeps.clock; core sits above auth). */
  clock: { now(): number };
}

/**
 * A bearer token to its session, account and tenancy scope (the session's working enterprise),
 * or the AppError the caller must see. The REST auth hook and the hub both use it, so a token
 * means the same thing everywhere. A disabled account ends its session (1001).
 */
export async function authenticate(deps: AuthenticateDeps, token: string | undefined): Promise<AuthContext> {
  const { db, config } = deps;
  const policy = { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs };
  const session = await resolveSession(db, policy, token, deps.clock.now());
  const account = await db
    .selectFrom('account')
    .select(['A_ID', 'E_ID', 'LoginName', 'Name', 'Role', 'Disabled'])
    .where('A_ID', '=', session.A_ID)
    .executeTakeFirst();
  if (!account || account.Disabled) {
    await endSession(db, session.S_ID, 'frozen');
    announceSessionsEnded(deps, session.E_ID, [session.S_ID], 'frozen');
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
