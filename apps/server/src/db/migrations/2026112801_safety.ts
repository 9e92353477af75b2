import type { Kysely } from 'kysely';

/**
 * Issue 32: lone worker, no movement, man down and escalation. `safety_setting` holds the check-in
 * and no-movement settings of a user, a department or a whole enterprise (one row per target);
 * `safety_state` a user's next check-in (due, and due plus the grace) and where and since when it
 * has stood still, so that a restart or a second instance neither loses nor doubles a check-in or
 * an alarm (every judgement is a conditional update). `notification.Escalated` marks an alarm raised
 * again because nobody acknowledged it; the view shows it. Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('safety_setting')
    .addColumn('TargetKind', 'varchar(16)', (c) => c.notNull())
    .addColumn('TargetID', 'integer', (c) => c.notNull())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('CheckInMinutes', 'integer', (c) => c.notNull())
    .addColumn('GraceMinutes', 'integer', (c) => c.notNull())
    .addColumn('NoMovementMinutes', 'integer', (c) => c.notNull())
    .addColumn('NoMovementMeters', 'integer', (c) => c.notNull())
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('safety_setting_pk', ['TargetKind', 'TargetID'])
    .execute();
  await db.schema.createIndex('safety_setting_enterprise').on('safety_setting').column('E_ID').execute();

  await db.schema
    .createTable('safety_state')
    .addColumn('U_ID', 'integer', (c) => c.primaryKey())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('DueAt', 'bigint')
    .addColumn('DeadlineAt', 'bigint')
    .addColumn('StillLat', 'double precision')
    .addColumn('StillLon', 'double precision')
    .addColumn('StillSince', 'bigint')
    .addColumn('StillAlarmedAt', 'bigint')
    .execute();

  await db.schema.dropView('notification_view').ifExists().execute();
  await db.schema
    .alterTable('notification')
    .addColumn('Escalated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('notification_unescalated')
    .on('notification')
    .columns(['State', 'Escalated', 'CreatedAt'])
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
          'n.Escalated',
        ]),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropView('notification_view').ifExists().execute();
  await db.schema.dropIndex('notification_unescalated').ifExists().execute();
  await db.schema.alterTable('notification').dropColumn('Escalated').execute();
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
  await db.schema.dropTable('safety_state').ifExists().execute();
  await db.schema.dropTable('safety_setting').ifExists().execute();
}
