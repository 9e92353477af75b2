import type { ExpressionBuilder, Kysely } from 'kysely';

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

/**
 * Issue 3: the working enterprise of a session, uniqueness the user and department rules rely on
 * (so a race between two requests ends in a conflict, never a duplicate), the index of the user
 * list, and the two list views (users with their department name, devices with their user).
 * Frozen in time: no application code is imported.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('session').addColumn('WorkingE_ID', 'integer').execute();

  await db.schema.dropIndex('user_name').execute();
  await db.schema.createIndex('user_name_unique').on('terminal_user').columns(['E_ID', 'UserName']).unique().execute();
  await db.schema.dropIndex('user_iccid').execute();
  await db.schema.createIndex('user_iccid_unique').on('terminal_user').column('ICCID').unique().execute();
  // The user list pages by UserID inside one enterprise.
  await db.schema.createIndex('user_list').on('terminal_user').columns(['E_ID', 'UserID']).execute();
  await db.schema
    .createIndex('organ_sibling_name')
    .on('organ')
    .columns(['E_ID', 'OSParentID', 'OSName'])
    .unique()
    .execute();

  // The views name related rows. SQLite: scalar subqueries, which a count or an OFFSET skip never
  // evaluates (SQLite walks a LEFT JOIN even for counted rows). PostgreSQL: LEFT JOINs, which its
  // planner removes from counts, whereas it would run a subquery for every row an OFFSET skips.
  const pg = isPostgres(db);
  const related = (table: string, key: string, column: string, ref: string) => (eb: ExpressionBuilder<any, any>) =>
    pg
      ? `${table}.${column}`
      : eb.selectFrom(`${table} as r`).select(`r.${column}`).whereRef(`r.${key}`, '=', ref).as(column);
  let users = db.selectFrom('terminal_user as u');
  if (pg) users = users.leftJoin('organ', 'organ.OSID', 'u.OS_ID');
  await db.schema
    .createView('user_view')
    .as(
      users.select((eb) => [
        'u.UserID',
        'u.E_ID',
        'u.OS_ID',
        related('organ', 'OSID', 'OSName', 'u.OS_ID')(eb),
        'u.UserName',
        'u.MobilePhone',
        'u.ICCID',
        'u.UType',
        'u.PriorityLevel',
        'u.ExpireAt',
        'u.IsLock',
        'u.Caps',
        'u.GPSConfig',
        'u.Remark',
        'u.CreatedAt',
      ]),
    )
    .execute();

  let devices = db.selectFrom('device as d');
  if (pg) {
    devices = devices
      .leftJoin('organ', 'organ.OSID', 'd.OSID')
      .leftJoin('terminal_user', 'terminal_user.UserID', 'd.UserID');
  }
  await db.schema
    .createView('device_view')
    .as(
      devices.select((eb) => [
        'd.D_ID',
        'd.E_ID',
        'd.DeviceCode',
        'd.ICCID',
        'd.NickName',
        'd.Priority',
        'd.OSID',
        related('organ', 'OSID', 'OSName', 'd.OSID')(eb),
        'd.UType',
        'd.Remark',
        'd.UserID',
        related('terminal_user', 'UserID', 'UserName', 'd.UserID')(eb),
        related('terminal_user', 'UserID', 'MobilePhone', 'd.UserID')(eb),
        'd.CreatedAt',
      ]),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropView('device_view').ifExists().execute();
  await db.schema.dropView('user_view').ifExists().execute();
  await db.schema.dropIndex('organ_sibling_name').ifExists().execute();
  await db.schema.dropIndex('user_list').ifExists().execute();
  await db.schema.dropIndex('user_iccid_unique').ifExists().execute();
  await db.schema.createIndex('user_iccid').on('terminal_user').column('ICCID').execute();
  await db.schema.dropIndex('user_name_unique').ifExists().execute();
  await db.schema.createIndex('user_name').on('terminal_user').columns(['E_ID', 'UserName']).execute();
  await db.schema.alterTable('session').dropColumn('WorkingE_ID').execute();
}
