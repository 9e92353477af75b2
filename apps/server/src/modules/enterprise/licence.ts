import { MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { countUsers, lockEnterprise } from './enterpriseRepository.js';

/** Licences left in an enterprise: its quota minus its users (DESIGN.md section 5). */
export async function balanceOf(db: Kysely<DB>, enterpriseId: number): Promise<number> {
  const enterprise = await db
    .selectFrom('enterprise')
    .select('Quota')
    .where('E_ID', '=', enterpriseId)
    .executeTakeFirst();
  return Math.max(0, (enterprise?.Quota ?? 0) - (await countUsers(db, enterpriseId)));
}

/** Refuses with "account shortage" (4009, Params balance and needed) when `needed` users do not fit. */
export async function assertLicences(db: Kysely<DB>, enterpriseId: number, needed: number): Promise<void> {
  const balance = await balanceOf(db, enterpriseId);
  if (needed > balance) throw AppError.conflict(MessageKeys.accountShortage, { balance, needed });
}

/** The same check inside the creating transaction, with the enterprise locked so two batches cannot both fit. */
export async function reserveLicences(trx: Kysely<DB>, enterpriseId: number, needed: number): Promise<void> {
  await lockEnterprise(trx, enterpriseId);
  await assertLicences(trx, enterpriseId, needed);
}
