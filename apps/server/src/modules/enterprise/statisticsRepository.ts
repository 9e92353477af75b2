import type { Statistics } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Scope } from '../../tenancy/scope.js';

type CountedTable = 'terminal_user' | 'organ' | 'channel' | 'channel_member' | 'recording' | 'enterprise';

async function countIn(db: Kysely<DB>, table: CountedTable, scope: Scope): Promise<number> {
  const row = await (db as unknown as Kysely<any>)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Counts for the dashboard. Balance is the licences left (quota minus users) summed over the
 * scope's enterprises; ChannelSum counts channel memberships; RecordSum counts recordings.
 */
export async function loadStatistics(db: Kysely<DB>, scope: Scope, online: number): Promise<Statistics> {
  const ids = [...scope.enterpriseIds];
  const [User, Organ, Channel, ChannelSum, RecordSum, Enterprise, quotas, perEnterprise] = await Promise.all([
    countIn(db, 'terminal_user', scope),
    countIn(db, 'organ', scope),
    countIn(db, 'channel', scope),
    countIn(db, 'channel_member', scope),
    countIn(db, 'recording', scope),
    countIn(db, 'enterprise', scope),
    db.selectFrom('enterprise').select(['E_ID', 'Quota']).where('E_ID', 'in', ids).execute(),
    db
      .selectFrom('terminal_user')
      .select((eb) => ['E_ID', eb.fn.countAll<number>().as('n')])
      .where('E_ID', 'in', ids)
      .groupBy('E_ID')
      .execute(),
  ]);
  const used = new Map(perEnterprise.map((r) => [r.E_ID, Number(r.n)]));
  const Balance = quotas.reduce((sum, e) => sum + Math.max(0, e.Quota - (used.get(e.E_ID) ?? 0)), 0);
  return { User, Organ, Channel, Balance, ChannelSum, RecordSum, Online: online, Enterprise };
}
