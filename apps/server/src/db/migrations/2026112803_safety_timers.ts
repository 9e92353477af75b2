import type { Kysely } from 'kysely';

/**
 * Issues 32 and 35: safety timers that survive a restart and fire once across instances.
 * `notification.CallID` is the emergency call an SOS or ManDown alarm opened (or joined): set by a
 * conditional update (`where CallID is null`), so the alarm pushed again (escalated, after a restart,
 * on another instance) opens no second call. `emergency_call` lists the open emergency calls (EndedAt
 * null), so a dispatcher seat that logs in later, on any instance, is offered them.
 * `safety_state_deadline` serves the sweep that judges missed check-ins of every user, connected or
 * not. Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification').addColumn('CallID', 'bigint').execute();
  await db.schema
    .createTable('emergency_call')
    .addColumn('CID', 'bigint', (c) => c.primaryKey())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('UserName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('Record', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('MaxTalkMs', 'integer', (c) => c.notNull())
    .addColumn('OpenedAt', 'bigint', (c) => c.notNull())
    .addColumn('EndedAt', 'bigint')
    .execute();
  await db.schema.createIndex('emergency_call_open').on('emergency_call').columns(['EndedAt', 'E_ID']).execute();
  await db.schema.createIndex('emergency_call_user').on('emergency_call').column('U_ID').execute();
  await db.schema.createIndex('safety_state_deadline').on('safety_state').column('DeadlineAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('safety_state_deadline').ifExists().execute();
  await db.schema.dropTable('emergency_call').ifExists().execute();
  await db.schema.alterTable('notification').dropColumn('CallID').execute();
}
