import { sql, type Kysely } from 'kysely';

/**
 * Issue 4: channels with their member count, recordings and alarms with the names they show,
 * acknowledge and resolve details of alarms, the other party of a private-call recording, unique
 * profile names with one current profile per enterprise, unique type names. Every added column
 * has a default, so older inserts keep working. Frozen in time: no application code is imported.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification').addColumn('AckBy', 'integer').execute();
  await db.schema
    .alterTable('notification')
    .addColumn('AckName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('notification').addColumn('AckAt', 'bigint').execute();
  await db.schema
    .alterTable('notification')
    .addColumn('AckComment', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('notification')
    .addColumn('HandledName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('notification_time').on('notification').columns(['E_ID', 'CreatedAt']).execute();

  await db.schema.alterTable('recording').addColumn('ToU_ID', 'integer').execute();
  await db.schema.createIndex('recording_channel').on('recording').columns(['CID', 'StartAt']).execute();
  await db.schema.createIndex('recording_speaker').on('recording').columns(['U_ID', 'StartAt']).execute();

  await db.schema
    .createIndex('location_profile_name')
    .on('location_profile')
    .columns(['E_ID', 'SCName'])
    .unique()
    .execute();
  await db.schema
    .createIndex('location_profile_current')
    .on('location_profile')
    .column('E_ID')
    .unique()
    .where(sql.ref('IsCurrent'), '=', 1)
    .execute();
  await db.schema.createIndex('gis_type_name').on('gis_type').columns(['E_ID', 'Kind', 'Name']).unique().execute();

  await db.schema
    .createView('channel_view')
    .as(
      db.selectFrom('channel as c').select([
        'c.CID',
        'c.E_ID',
        'c.CName',
        'c.CTypeID',
        'c.Note',
        'c.Priority',
        'c.VideoEnable',
        'c.Record',
        (eb) =>
          eb
            .selectFrom('channel_member as m')
            .whereRef('m.CID', '=', 'c.CID')
            .select((e) => e.fn.countAll().as('n'))
            .as('MemberCount'),
        'c.CreatedAt',
      ]),
    )
    .execute();

  await db.schema
    .createView('recording_view')
    .as(
      db
        .selectFrom('recording as r')
        .leftJoin('channel as c', 'c.CID', 'r.CID')
        .leftJoin('terminal_user as u', 'u.UserID', 'r.U_ID')
        .leftJoin('terminal_user as p', 'p.UserID', 'r.ToU_ID')
        .select([
          'r.R_ID',
          'r.E_ID',
          'r.RType',
          'r.CID',
          'c.CName',
          'r.U_ID',
          'u.UserName',
          'u.MobilePhone',
          'r.ToU_ID',
          'p.UserName as ToUserName',
          'r.StartAt',
          'r.Duration',
          'r.Size',
        ]),
    )
    .execute();

  await db.schema
    .createView('notification_view')
    .as(
      db
        .selectFrom('notification as n')
        .leftJoin('terminal_user as u', 'u.UserID', 'n.U_ID')
        .select([
          'n.N_ID',
          'n.E_ID',
          'n.U_ID',
          'u.UserName',
          'n.Phone',
          'n.NType',
          'n.Content',
          'n.Latitude',
          'n.Longitude',
          'n.State',
          'n.AckBy',
          'n.AckName',
          'n.AckAt',
          'n.AckComment',
          'n.HandledBy',
          'n.HandledName',
          'n.HandledAt',
          'n.Comment',
          'n.CreatedAt',
        ]),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropView('notification_view').ifExists().execute();
  await db.schema.dropView('recording_view').ifExists().execute();
  await db.schema.dropView('channel_view').ifExists().execute();
  await db.schema.dropIndex('gis_type_name').ifExists().execute();
  await db.schema.dropIndex('location_profile_current').ifExists().execute();
  await db.schema.dropIndex('location_profile_name').ifExists().execute();
  await db.schema.dropIndex('recording_speaker').ifExists().execute();
  await db.schema.dropIndex('recording_channel').ifExists().execute();
  await db.schema.alterTable('recording').dropColumn('ToU_ID').execute();
  await db.schema.dropIndex('notification_time').ifExists().execute();
  for (const column of ['HandledName', 'AckComment', 'AckAt', 'AckName', 'AckBy']) {
    await db.schema.alterTable('notification').dropColumn(column).execute();
  }
}
