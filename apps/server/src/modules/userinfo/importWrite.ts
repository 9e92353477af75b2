import { USER_CAPS_DEFAULT, UserImportLimits } from '@intercom/contract';
import type { Kysely, Updateable } from 'kysely';
import type { ServiceContext } from '../../core/serviceContext.js';
import type { DB, UserTable } from '../../db/schema.js';
import { reserveLicences } from '../enterprise/index.js';
import type { KnownUser } from './importLookups.js';
import { bindIccid } from './simBinding.js';
import { withUserConflicts } from './userRules.js';

/** A row to write: a new user (values complete) or a known one (only what changes). */
export type WriteRow =
  | { kind: 'create'; values: NewUserValues; ICCID: string | undefined; channels: number[] }
  | {
      kind: 'update';
      known: KnownUser;
      values: Updateable<UserTable>;
      ICCID: string | undefined;
      channels: number[];
      priority: number;
    };

export interface NewUserValues {
  OS_ID: number | null;
  UserName: string;
  MobilePhone: string;
  UType: number;
  PriorityLevel: number;
  Remark: string;
  PasswordHash: string;
}

const INSERT_PART = 100;

function parts<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Creates the missing departments (paths parents first) in one transaction; returns path → OSID. */
export async function createDepartments(
  db: Kysely<DB>,
  E_ID: number,
  paths: readonly string[],
  known: Map<string, number>,
): Promise<Map<string, number>> {
  const ids = new Map(known);
  if (paths.length === 0) return ids;
  await db.transaction().execute(async (trx) => {
    for (const path of paths) {
      const cut = path.lastIndexOf(UserImportLimits.departmentSeparator);
      const parent = cut < 0 ? 0 : (ids.get(path.slice(0, cut)) ?? 0);
      const row = await trx
        .insertInto('organ')
        .values({ E_ID, OSParentID: parent, OSName: path.slice(cut + 1), U_TypeID: 0, PriorityLevel: 0 })
        .returning('OSID')
        .executeTakeFirstOrThrow();
      ids.set(path, row.OSID);
    }
  });
  return ids;
}

/**
 * Writes the rows, one transaction per UserImportLimits.chunkRows rows: licences reserved (the
 * enterprise locked) for the chunk's new users, users inserted or updated, SIMs bound, channel
 * memberships added. A failure leaves every earlier chunk whole and this one absent. `onWritten`
 * hears the rows written so far after each chunk.
 */
export async function writeRows(
  ctx: ServiceContext,
  E_ID: number,
  rows: WriteRow[],
  onWritten: (rows: number) => void = () => undefined,
): Promise<number[]> {
  const touched: number[] = [];
  const now = ctx.clock.now();
  for (const chunk of parts(rows, UserImportLimits.chunkRows)) {
    const creates = chunk.filter((r) => r.kind === 'create');
    const identities = creates.map((r) => ({
      UserID: 0,
      E_ID,
      MobilePhone: r.values.MobilePhone,
      UserName: r.values.UserName,
      ICCID: r.ICCID ?? null,
    }));
    const ids = await withUserConflicts(ctx.db, identities, () =>
      ctx.db.transaction().execute(async (trx) => {
        await reserveLicences(trx, E_ID, creates.length);
        const created = await insertNew(trx, E_ID, creates, now);
        const members: { CID: number; UserID: number; E_ID: number; Priority: number }[] = [];
        for (const row of chunk) {
          const UserID = row.kind === 'create' ? (created.get(row.values.MobilePhone) as number) : row.known.UserID;
          if (row.kind === 'update' && Object.keys(row.values).length > 0) {
            await trx.updateTable('terminal_user').set(row.values).where('UserID', '=', UserID).execute();
          }
          if (row.ICCID) await bindIccid(trx, { UserID, E_ID }, row.ICCID, now);
          const Priority = row.kind === 'create' ? row.values.PriorityLevel : row.priority;
          for (const CID of row.channels) members.push({ CID, UserID, E_ID, Priority });
        }
        for (const part of parts(members, 200)) {
          await trx
            .insertInto('channel_member')
            .values(part)
            .onConflict((oc) => oc.columns(['CID', 'UserID']).doNothing())
            .execute();
        }
        return chunk.map((row) =>
          row.kind === 'create' ? (created.get(row.values.MobilePhone) as number) : row.known.UserID,
        );
      }),
    );
    touched.push(...ids);
    ctx.events.notify('usersChanged', { E_ID, UserIDs: ids });
    // Users added to channels: their terminals, where online, ask for their channels again.
    const joined = ids.filter((_, i) => chunk[i]!.channels.length > 0);
    if (joined.length > 0) ctx.events.notify('channelsChanged', { E_ID, UserIDs: joined });
    onWritten(touched.length);
  }
  return touched;
}

async function insertNew(
  trx: Kysely<DB>,
  E_ID: number,
  creates: Extract<WriteRow, { kind: 'create' }>[],
  now: number,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const part of parts(creates, INSERT_PART)) {
    const inserted = await trx
      .insertInto('terminal_user')
      .values(
        part.map((r) => ({
          ...r.values,
          E_ID,
          ICCID: null,
          ExpireAt: null,
          IsLock: 0,
          Caps: USER_CAPS_DEFAULT,
          GPSConfig: '',
          CreatedAt: now,
        })),
      )
      .returning(['UserID', 'MobilePhone'])
      .execute();
    for (const row of inserted) ids.set(row.MobilePhone, row.UserID);
  }
  return ids;
}
