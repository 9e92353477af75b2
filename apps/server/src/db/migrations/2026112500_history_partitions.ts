import { sql, type Kysely } from 'kysely';

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

const DAY_MS = 86_400_000;

/** `location_history_p20261125`: the UTC day whose rows the partition holds (the server uses the same names). */
function partitionName(day: number): string {
  return `location_history_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * The location history grows for years (issue 15). PostgreSQL: `location_history` becomes a table
 * partitioned by UTC day on H_Time (RANGE, epoch ms), so retention drops whole days. The primary key
 * of a partitioned table must hold the partition key: (H_ID, H_Time); H_ID keeps its sequence. A
 * DEFAULT partition takes any fix no day partition covers (a terminal with a wrong clock, a day the
 * server never created), so an insert never fails for its time. Existing rows are copied into day
 * partitions inside the migration's transaction: every row or none. The server creates the coming
 * days' partitions itself (db/historyPartitions.ts).
 * SQLite: one index on H_Time, for retention's batched deletes of the oldest rows.
 * Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await db.schema.createIndex('location_history_time').on('location_history').column('H_Time').execute();
    return;
  }
  const kind = await sql<{ relkind: string }>`
    select relkind from pg_class where oid = to_regclass('location_history')`.execute(db);
  if (kind.rows[0]?.relkind === 'p') return;

  await sql`alter table location_history rename to location_history_unpartitioned`.execute(db);
  await sql`alter index location_history_pkey rename to location_history_unpartitioned_pkey`.execute(db);
  await sql`alter index location_history_track rename to location_history_unpartitioned_track`.execute(db);
  await sql`create table location_history (
      "H_ID" bigint not null default nextval('"location_history_H_ID_seq"'),
      "E_ID" integer not null,
      "U_ID" integer not null,
      "H_Time" bigint not null,
      "H_Type" integer not null default 0,
      "C_Longitude" double precision not null,
      "C_Latitude" double precision not null,
      "Speed" real,
      "Course" real,
      "Accuracy" real,
      "Altitude" real,
      constraint location_history_pkey primary key ("H_ID", "H_Time")
    ) partition by range ("H_Time")`.execute(db);
  // Covering the Track read (trackRepository.ts): one user's day comes from a few adjacent index
  // pages, not from one heap page per fix (fixes of many users interleave in the heap).
  await sql`create index location_history_track on location_history ("E_ID", "U_ID", "H_Time")
    include ("H_ID", "C_Latitude", "C_Longitude", "Speed", "Course", "H_Type")`.execute(db);
  await sql`create table location_history_default partition of location_history default`.execute(db);

  const days = await sql<{ day: number | string }>`
    select distinct floor("H_Time"::numeric / ${DAY_MS})::bigint as day from location_history_unpartitioned`.execute(
    db,
  );
  for (const { day } of days.rows) {
    const from = Number(day) * DAY_MS;
    await sql`create table ${sql.id(partitionName(Number(day)))} partition of location_history
      for values from (${sql.lit(from)}) to (${sql.lit(from + DAY_MS)})`.execute(db);
  }
  await sql`insert into location_history select * from location_history_unpartitioned`.execute(db);
  // The sequence (bigserial's, still drawn on by the new default) must outlive the old table.
  await sql`alter sequence "location_history_H_ID_seq" owned by location_history."H_ID"`.execute(db);
  await sql`drop table location_history_unpartitioned`.execute(db);
}

/** Back to one plain table (every row kept); SQLite: the H_Time index goes. */
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await db.schema.dropIndex('location_history_time').ifExists().execute();
    return;
  }
  await sql`alter table location_history rename to location_history_partitioned`.execute(db);
  await sql`alter index location_history_pkey rename to location_history_partitioned_pkey`.execute(db);
  await sql`alter index location_history_track rename to location_history_partitioned_track`.execute(db);
  await sql`create table location_history (like location_history_partitioned including defaults)`.execute(db);
  await sql`alter table location_history add constraint location_history_pkey primary key ("H_ID")`.execute(db);
  await sql`create index location_history_track on location_history ("E_ID", "U_ID", "H_Time")`.execute(db);
  await sql`insert into location_history select * from location_history_partitioned`.execute(db);
  await sql`alter sequence "location_history_H_ID_seq" owned by location_history."H_ID"`.execute(db);
  await sql`drop table location_history_partitioned`.execute(db);
}
