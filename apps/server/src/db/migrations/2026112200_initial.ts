import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * The whole data model of SPEC.md section 3. Migrations never import application code: they
 * stay frozen in time. Column names follow the spec's field names.
 */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // serial keys: SERIAL/BIGSERIAL on PostgreSQL, INTEGER PRIMARY KEY AUTOINCREMENT on SQLite
  const id = pg ? 'serial' : 'integer';
  const bigId = pg ? 'bigserial' : 'integer';
  const pk = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const time = 'bigint';

  await db.schema
    .createTable('enterprise')
    .addColumn('E_ID', id, pk)
    .addColumn('E_Code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('E_Name', 'varchar(128)', (c) => c.notNull())
    .addColumn('P_ID', 'integer', (c) => c.references('enterprise.E_ID'))
    .addColumn('A_ID', 'integer')
    .addColumn('Quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ExpireAt', time)
    .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('enterprise_parent').on('enterprise').column('P_ID').execute();

  await db.schema
    .createTable('account')
    .addColumn('A_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('LoginName', 'varchar(64)', (c) => c.notNull())
    .addColumn('Name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('Mail', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('PasswordHash', 'varchar(256)', (c) => c.notNull())
    .addColumn('Role', 'varchar(16)', (c) => c.notNull())
    .addColumn('Disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('FailedCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('LockedUntil', time)
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .addUniqueConstraint('account_login_unique', ['E_ID', 'LoginName'])
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('S_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('A_ID', 'integer', (c) => c.notNull().references('account.A_ID'))
    .addColumn('TokenHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('RefreshHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('ClientId', 'varchar(64)', (c) => c.notNull())
    .addColumn('IP', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .addColumn('LastSeenAt', time, (c) => c.notNull())
    .addColumn('ExpiresAt', time, (c) => c.notNull())
    .addColumn('EndedAt', time)
    .addColumn('EndReason', 'varchar(16)')
    .execute();
  await db.schema.createIndex('session_account').on('session').columns(['A_ID', 'EndedAt']).execute();

  await db.schema
    .createTable('organ')
    .addColumn('OSID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('OSParentID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('OSName', 'varchar(64)', (c) => c.notNull())
    .addColumn('U_TypeID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('PriorityLevel', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('organ_parent').on('organ').columns(['E_ID', 'OSParentID']).execute();

  await db.schema
    .createTable('terminal_user')
    .addColumn('UserID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('OS_ID', 'integer')
    .addColumn('UserName', 'varchar(64)', (c) => c.notNull())
    .addColumn('MobilePhone', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('ICCID', 'varchar(20)')
    .addColumn('UType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('PriorityLevel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ExpireAt', time)
    .addColumn('IsLock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Caps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('PasswordHash', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('GPSConfig', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('Remark', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_organ').on('terminal_user').columns(['E_ID', 'OS_ID']).execute();
  await db.schema.createIndex('user_name').on('terminal_user').columns(['E_ID', 'UserName']).execute();
  await db.schema.createIndex('user_iccid').on('terminal_user').columns(['ICCID']).execute();

  await db.schema
    .createTable('device')
    .addColumn('D_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('DeviceCode', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('ICCID', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('NickName', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('Priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('OSID', 'integer')
    .addColumn('UType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Remark', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('UserID', 'integer')
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_enterprise').on('device').columns(['E_ID', 'D_ID']).execute();
  await db.schema.createIndex('device_user').on('device').columns(['UserID']).execute();

  await db.schema
    .createTable('channel')
    .addColumn('CID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('CName', 'varchar(64)', (c) => c.notNull())
    .addColumn('CTypeID', 'integer', (c) => c.notNull().defaultTo(106))
    .addColumn('Note', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('Priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('VideoEnable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('Record', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .addUniqueConstraint('channel_name_unique', ['E_ID', 'CName'])
    .execute();

  await db.schema
    .createTable('channel_member')
    .addColumn('CID', 'integer', (c) => c.notNull().references('channel.CID').onDelete('cascade'))
    .addColumn('UserID', 'integer', (c) => c.notNull().references('terminal_user.UserID').onDelete('cascade'))
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('Priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('channel_member_pk', ['CID', 'UserID'])
    .execute();
  await db.schema.createIndex('channel_member_user').on('channel_member').columns(['E_ID', 'UserID']).execute();

  await db.schema
    .createTable('sys_config')
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('Code', 'varchar(64)', (c) => c.notNull())
    .addColumn('Value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sys_config_pk', ['E_ID', 'Code'])
    .execute();

  await db.schema
    .createTable('location_profile')
    .addColumn('SC_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull().references('enterprise.E_ID'))
    .addColumn('SCName', 'varchar(64)', (c) => c.notNull())
    .addColumn('SCValue', 'varchar(512)', (c) => c.notNull())
    .addColumn('IsCurrent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('location_profile_enterprise').on('location_profile').column('E_ID').execute();

  await db.schema
    .createTable('location_history')
    .addColumn('H_ID', bigId, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('H_Time', time, (c) => c.notNull())
    .addColumn('H_Type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('C_Longitude', 'double precision', (c) => c.notNull())
    .addColumn('C_Latitude', 'double precision', (c) => c.notNull())
    .addColumn('Speed', 'real')
    .addColumn('Course', 'real')
    .addColumn('Accuracy', 'real')
    .addColumn('Altitude', 'real')
    .execute();
  await db.schema
    .createIndex('location_history_track')
    .on('location_history')
    .columns(['E_ID', 'U_ID', 'H_Time'])
    .execute();

  await db.schema
    .createTable('notification')
    .addColumn('N_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer')
    .addColumn('Phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('NType', 'varchar(32)', (c) => c.notNull())
    .addColumn('Content', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('Latitude', 'double precision')
    .addColumn('Longitude', 'double precision')
    .addColumn('State', 'varchar(16)', (c) => c.notNull().defaultTo('new'))
    .addColumn('HandledBy', 'integer')
    .addColumn('HandledAt', time)
    .addColumn('Comment', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_state')
    .on('notification')
    .columns(['E_ID', 'State', 'CreatedAt'])
    .execute();

  await db.schema
    .createTable('heart_rate')
    .addColumn('HR_ID', bigId, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('U_ID', 'integer', (c) => c.notNull())
    .addColumn('Phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('Value', 'integer', (c) => c.notNull())
    .addColumn('H_Time', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('heart_rate_phone').on('heart_rate').columns(['E_ID', 'Phone', 'H_Time']).execute();

  await db.schema
    .createTable('sys_log')
    .addColumn('L_ID', bigId, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('A_ID', 'integer')
    .addColumn('Operator', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('Action', 'varchar(64)', (c) => c.notNull())
    .addColumn('Target', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('Summary', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .addColumn('IP', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_log_time').on('sys_log').columns(['E_ID', 'CreatedAt']).execute();

  await db.schema
    .createTable('recording')
    .addColumn('R_ID', bigId, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('CID', 'integer')
    .addColumn('U_ID', 'integer')
    .addColumn('RType', 'varchar(16)', (c) => c.notNull())
    .addColumn('StartAt', time, (c) => c.notNull())
    .addColumn('Duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('FilePath', 'varchar(256)', (c) => c.notNull())
    .addColumn('Size', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('recording_time').on('recording').columns(['E_ID', 'StartAt']).execute();

  await db.schema
    .createTable('gis_type')
    .addColumn('T_ID', id, pk)
    .addColumn('E_ID', 'integer', (c) => c.notNull())
    .addColumn('Kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('Name', 'varchar(64)', (c) => c.notNull())
    .addColumn('Option', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('gis_type_kind').on('gis_type').columns(['E_ID', 'Kind']).execute();

  await db.schema
    .createTable('server_key')
    .addColumn('K_ID', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('PrivatePem', 'text', (c) => c.notNull())
    .addColumn('Spki', 'text', (c) => c.notNull())
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('login_nonce')
    .addColumn('Hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('CreatedAt', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_nonce_time').on('login_nonce').column('CreatedAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'login_nonce',
    'server_key',
    'gis_type',
    'recording',
    'sys_log',
    'heart_rate',
    'notification',
    'location_history',
    'location_profile',
    'sys_config',
    'channel_member',
    'channel',
    'device',
    'terminal_user',
    'organ',
    'session',
    'account',
    'enterprise',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
