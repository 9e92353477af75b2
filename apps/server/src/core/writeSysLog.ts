import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface SysLogEntry {
  E_ID: number;
  A_ID: number | null;
  Operator: string;
  Action: string;
  Target?: string;
  /** A short before/after summary; objects are stored as JSON. */
  Summary?: string | Record<string, unknown>;
  IP: string;
}

const MAX_SUMMARY = 2000;

/** Writes one system-log row; pass the transaction when the change itself runs in one. */
export async function writeSysLog(db: Kysely<DB>, entry: SysLogEntry, now = Date.now()): Promise<void> {
  const summary = typeof entry.Summary === 'string' ? entry.Summary : JSON.stringify(entry.Summary ?? {});
  await db
    .insertInto('sys_log')
    .values({
      E_ID: entry.E_ID,
      A_ID: entry.A_ID,
      Operator: entry.Operator.slice(0, 64),
      Action: entry.Action,
      Target: (entry.Target ?? '').slice(0, 256),
      Summary: summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary,
      IP: entry.IP.slice(0, 64),
      CreatedAt: now,
    })
    .execute();
}

/** The who/where part of a log row for an authenticated request. */
export function actorOf(request: FastifyRequest): Pick<SysLogEntry, 'E_ID' | 'A_ID' | 'Operator' | 'IP'> {
  const auth = request.auth;
  return {
    E_ID: auth?.account.E_ID ?? 0,
    A_ID: auth?.account.A_ID ?? null,
    Operator: auth?.account.LoginName ?? '',
    IP: request.ip,
  };
}
