import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../auth/authContext.js';
import { authOf } from '../auth/authPlugin.js';
import type { DB } from '../db/schema.js';
import type { Scope } from '../tenancy/scope.js';
import type { Clock } from './clock.js';
import { actorOf, writeSysLog, type SysLogEntry } from './writeSysLog.js';
import type { TerminalEvents } from './terminalEvents.js';

/** Everything a service of issue 3 needs from the request, so services never see Fastify. */
export interface ServiceContext {
  db: Kysely<DB>;
  scope: Scope;
  account: AuthContext['account'];
  session: AuthContext['session'];
  actor: Pick<SysLogEntry, 'A_ID' | 'Operator' | 'IP'>;
  passwordLogN: number;
  events: TerminalEvents;
  /** AppDeps.clock: the time a change and its log row are stamped with. */
  clock: Clock;
}

export function serviceContext(request: FastifyRequest): ServiceContext {
  const auth = authOf(request);
  const { A_ID, Operator, IP } = actorOf(request);
  return {
    db: request.server.deps.db,
    scope: auth.scope,
    account: auth.account,
    session: auth.session,
    actor: { A_ID, Operator, IP },
    passwordLogN: request.server.deps.passwordLogN,
    events: request.server.terminalEvents,
    clock: request.server.deps.clock,
  };
}

/**
 * One system-log row for a change, written with the change's own transaction. E_ID is the
 * enterprise the change happened in, so that enterprise's admins see it in their log.
 */
export async function logChange(
  db: Kysely<DB>,
  ctx: ServiceContext,
  entry: { E_ID: number; Action: string; Target: string; Summary?: SysLogEntry['Summary'] },
): Promise<void> {
  await writeSysLog(db, { ...ctx.actor, ...entry }, ctx.clock.now());
}

/** The fields that differ between two versions of a row, as `{ field: [before, after] }`. */
export function changesOf<T extends Record<string, unknown>>(before: T, after: Partial<T>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value !== undefined && value !== before[field]) changes[field] = [before[field] ?? null, value];
  }
  return changes;
}
