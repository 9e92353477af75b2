import type { Kysely } from 'kysely';
import { safetyKey } from '@intercom/contract';
import type { SafetyStateTable } from '../../db/safetyTables.js';
import type { DB } from '../../db/schema.js';
import type { EnterpriseRules, SafetyTargetKind, SafetyValues } from './safetyRules.js';

/** An enterprise's settings rows and department tree. */
export async function enterpriseRules(db: Kysely<DB>, E_ID: number): Promise<EnterpriseRules> {
  const [rules, organs] = await Promise.all([
    db
      .selectFrom('safety_setting')
      .select(['TargetKind', 'TargetID', 'CheckInMinutes', 'GraceMinutes', 'NoMovementMinutes', 'NoMovementMeters'])
      .where('E_ID', '=', E_ID)
      .execute(),
    db.selectFrom('organ').select(['OSID', 'OSParentID']).where('E_ID', '=', E_ID).execute(),
  ]);
  return { E_ID, rules, parents: new Map(organs.map((o) => [o.OSID, o.OSParentID])) };
}

/** Each user's department (users that are gone are absent). */
export async function departmentsOf(db: Kysely<DB>, userIds: readonly number[]): Promise<Map<number, number | null>> {
  const found = new Map<number, number | null>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('terminal_user')
      .select(['UserID', 'OS_ID'])
      .where('UserID', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.UserID, row.OS_ID);
  }
  return found;
}

/** Writes (replaces) the settings of each target. */
export async function upsertRules(
  db: Kysely<DB>,
  E_ID: number,
  targets: readonly { kind: SafetyTargetKind; id: number }[],
  values: SafetyValues,
  now: number,
): Promise<void> {
  for (const target of targets) {
    const row = { ...values, UpdatedAt: now };
    await db
      .insertInto('safety_setting')
      .values({ TargetKind: target.kind, TargetID: target.id, E_ID, ...row })
      .onConflict((oc) => oc.columns(['TargetKind', 'TargetID']).doUpdateSet(row))
      .execute();
  }
}

/** The names of users, departments and enterprises, by `safetyKey` (those gone are absent). */
export async function targetNames(
  db: Kysely<DB>,
  targets: readonly { kind: SafetyTargetKind; id: number }[],
): Promise<Map<string, string>> {
  const idsOf = (kind: SafetyTargetKind) => [...new Set(targets.filter((t) => t.kind === kind).map((t) => t.id))];
  const [users, departments, enterprises] = [idsOf('user'), idsOf('department'), idsOf('enterprise')];
  const names = new Map<string, string>();
  const rows = await Promise.all([
    users.length === 0
      ? []
      : db
          .selectFrom('terminal_user')
          .select(['UserID as id', 'UserName as name'])
          .where('UserID', 'in', users)
          .execute(),
    departments.length === 0
      ? []
      : db.selectFrom('organ').select(['OSID as id', 'OSName as name']).where('OSID', 'in', departments).execute(),
    enterprises.length === 0
      ? []
      : db.selectFrom('enterprise').select(['E_ID as id', 'E_Name as name']).where('E_ID', 'in', enterprises).execute(),
  ]);
  rows.forEach((found, i) => {
    for (const row of found) names.set(safetyKey(SAFETY_KINDS[i]!, row.id), row.name);
  });
  return names;
}

const SAFETY_KINDS: SafetyTargetKind[] = ['user', 'department', 'enterprise'];

/** Stored settings rows by target, of the enterprises `enterpriseIds` only. */
export async function findRules(
  db: Kysely<DB>,
  enterpriseIds: readonly number[],
  targets: readonly { kind: SafetyTargetKind; id: number }[],
): Promise<{ TargetKind: string; TargetID: number; E_ID: number }[]> {
  const found: { TargetKind: string; TargetID: number; E_ID: number }[] = [];
  for (const kind of SAFETY_KINDS) {
    const ids = targets.filter((t) => t.kind === kind).map((t) => t.id);
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom('safety_setting')
      .select(['TargetKind', 'TargetID', 'E_ID'])
      .where('TargetKind', '=', kind)
      .where('TargetID', 'in', ids)
      .where('E_ID', 'in', [...enterpriseIds])
      .execute();
    found.push(...rows);
  }
  return found;
}

export async function deleteRule(db: Kysely<DB>, kind: string, id: number): Promise<void> {
  await db.deleteFrom('safety_setting').where('TargetKind', '=', kind).where('TargetID', '=', id).execute();
}

/** A user's next check-in and standing-still state, as stored. */
export type SafetyStateRow = Omit<SafetyStateTable, 'E_ID'>;

const num = (v: number | string | null) => (v === null ? null : Number(v));

export async function statesOf(db: Kysely<DB>, userIds: readonly number[]): Promise<Map<number, SafetyStateRow>> {
  const found = new Map<number, SafetyStateRow>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('safety_state')
      .select(['U_ID', 'DueAt', 'DeadlineAt', 'StillLat', 'StillLon', 'StillSince', 'StillAlarmedAt'])
      .where('U_ID', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      found.set(r.U_ID, {
        U_ID: r.U_ID,
        DueAt: num(r.DueAt),
        DeadlineAt: num(r.DeadlineAt),
        StillLat: r.StillLat,
        StillLon: r.StillLon,
        StillSince: num(r.StillSince),
        StillAlarmedAt: num(r.StillAlarmedAt),
      });
    }
  }
  return found;
}

type StateColumns = Partial<Omit<SafetyStateRow, 'U_ID'>>;

/** Sets these columns of the user's row (made if absent). */
export async function writeState(db: Kysely<DB>, U_ID: number, E_ID: number, values: StateColumns): Promise<void> {
  await db
    .insertInto('safety_state')
    .values({ U_ID, E_ID, ...values })
    .onConflict((oc) => oc.column('U_ID').doUpdateSet(values))
    .execute();
}

/**
 * Moves a missed check-in on to the next one, provided nobody did since `dueAt` was read. True when
 * this call moved it: of two instances (or a tick and a late check-in) one alarms.
 */
export async function passCheckIn(
  db: Kysely<DB>,
  U_ID: number,
  dueAt: number,
  next: { DueAt: number; DeadlineAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('safety_state')
    .set(next)
    .where('U_ID', '=', U_ID)
    .where('DueAt', '=', dueAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the standing still since `since` as alarmed; true when this call marked it. */
export async function markStill(db: Kysely<DB>, U_ID: number, since: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('safety_state')
    .set({ StillAlarmedAt: at })
    .where('U_ID', '=', U_ID)
    .where('StillSince', '=', since)
    .where('StillAlarmedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A user who logged out: no check-in is due and no standing still is timed. */
export async function clearState(db: Kysely<DB>, U_ID: number): Promise<void> {
  await db.deleteFrom('safety_state').where('U_ID', '=', U_ID).execute();
}
