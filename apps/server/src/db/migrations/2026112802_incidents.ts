import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * Issue 32: incident zones. `incident` holds the zone (a circle's centre and radius, or a polygon's
 * points as JSON `[[lat, lon], ...]`), its temporary channel (CID) and whether it is closed;
 * `incident_member` the users in it now (or at its close): a row is inserted on joining and deleted
 * on leaving, and the key makes the first writer win, so two instances that see one fix push one
 * `regrouped`; `incident_event` the member timeline (joined, left) QueryData lists.
 * Frozen in time: no application code.
 */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const pk = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('incident')
    .addColumn('IN_ID', pg ? 'serial' : 'integer', pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('CID', 'integer', (c) => c.notNull())
    .addColumn('Name', 'varchar(64)', (c) => c.notNull())
    .addColumn('Kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('CenterLat', 'double precision')
    .addColumn('CenterLon', 'double precision')
    .addColumn('Radius', 'double precision')
    .addColumn('Points', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('Sticky', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('CreatedBy', 'integer')
    .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
    .addColumn('ClosedAt', 'bigint')
    .execute();
  await db.schema.createIndex('incident_enterprise').on('incident').columns(['E_ID', 'ClosedAt']).execute();

  await db.schema
    .createTable('incident_member')
    .addColumn('IN_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('JoinedAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('incident_member_pk', ['IN_ID', 'U_ID'])
    .execute();

  await db.schema
    .createTable('incident_event')
    .addColumn('IE_ID', pg ? 'serial' : 'integer', pk)
    .addColumn('IN_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('UserName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('At', 'bigint', (c) => c.notNull())
    .addColumn('Change', 'varchar(8)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_event_incident').on('incident_event').columns(['IN_ID', 'At']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_event').ifExists().execute();
  await db.schema.dropTable('incident_member').ifExists().execute();
  await db.schema.dropTable('incident').ifExists().execute();
}
