import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * Issue 32: geofences. `geofence` holds the shape (a circle's centre and radius, or a polygon's
 * points as JSON `[[lat, lon], ...]`) and what to alarm; `geofence_target` the users and departments
 * it applies to (none: the whole enterprise); `geofence_state` which users are inside which fence
 * since when, so that a restart or a second instance neither raises a crossing twice nor loses one
 * (a row is inserted on entering and deleted on leaving; the key makes the first writer win).
 * Frozen in time: no application code.
 */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const pk = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('geofence')
    .addColumn('GF_ID', pg ? 'serial' : 'integer', pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('Name', 'varchar(64)', (c) => c.notNull())
    .addColumn('Kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('CenterLat', 'double precision')
    .addColumn('CenterLon', 'double precision')
    .addColumn('Radius', 'double precision')
    .addColumn('Points', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('Enter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Exit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('DwellMinutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('CreatedAt', 'bigint', (c) => c.notNull())
    .addColumn('UpdatedAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('geofence_enterprise').on('geofence').columns(['E_ID', 'GF_ID']).execute();

  await db.schema
    .createTable('geofence_target')
    .addColumn('GF_ID', 'integer', (c) => c.notNull())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('TargetKind', 'varchar(16)', (c) => c.notNull())
    .addColumn('TargetID', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('geofence_target_pk', ['GF_ID', 'TargetKind', 'TargetID'])
    .execute();

  await db.schema
    .createTable('geofence_state')
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('GF_ID', 'integer', (c) => c.notNull())
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('EnteredAt', 'bigint', (c) => c.notNull())
    .addColumn('DwellAt', 'bigint')
    .addPrimaryKeyConstraint('geofence_state_pk', ['U_ID', 'GF_ID'])
    .execute();
  await db.schema.createIndex('geofence_state_fence').on('geofence_state').column('GF_ID').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('geofence_state').ifExists().execute();
  await db.schema.dropTable('geofence_target').ifExists().execute();
  await db.schema.dropTable('geofence').ifExists().execute();
}
