import type { Kysely } from 'kysely';

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

  // Names of related rows come from scalar subqueries rather than joins: a count or an OFFSET
  // skip over the view never evaluates them (a join would be walked for every counted row).
  const organName = (column: string) => (eb: any) =>
    eb.selectFrom('organ as o').select('o.OSName').whereRef('o.OSID', '=', column).as('OSName');
  await db.schema
    .createView('user_view')
    .as(
      db
        .selectFrom('terminal_user as u')
        .select((eb) => [
          'u.UserID',
          'u.E_ID',
          'u.OS_ID',
          organName('u.OS_ID')(eb),
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

  await db.schema
    .createView('device_view')
    .as(
      db
        .selectFrom('device as d')
        .select((eb) => [
          'd.D_ID',
          'd.E_ID',
          'd.DeviceCode',
          'd.ICCID',
          'd.NickName',
          'd.Priority',
          'd.OSID',
          organName('d.OSID')(eb),
          'd.UType',
          'd.Remark',
          'd.UserID',
          eb.selectFrom('terminal_user as u').select('u.UserName').whereRef('u.UserID', '=', 'd.UserID').as('UserName'),
          eb.selectFrom('terminal_user as u').select('u.MobilePhone').whereRef('u.UserID', '=', 'd.UserID').as('MobilePhone'),
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
