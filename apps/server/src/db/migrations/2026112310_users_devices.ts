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

  await db.schema
    .createView('user_view')
    .as(
      db
        .selectFrom('terminal_user as u')
        .leftJoin('organ as o', 'o.OSID', 'u.OS_ID')
        .select([
          'u.UserID',
          'u.E_ID',
          'u.OS_ID',
          'o.OSName',
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
        .leftJoin('terminal_user as u', 'u.UserID', 'd.UserID')
        .leftJoin('organ as o', 'o.OSID', 'd.OSID')
        .select([
          'd.D_ID',
          'd.E_ID',
          'd.DeviceCode',
          'd.ICCID',
          'd.NickName',
          'd.Priority',
          'd.OSID',
          'o.OSName',
          'd.UType',
          'd.Remark',
          'd.UserID',
          'u.UserName',
          'u.MobilePhone',
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
