import { sql, type Kysely } from 'kysely';

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

/**
 * Substring search over terminal users' name, phone and ICCID without reading every user.
 * SQLite: an FTS5 index with the trigram tokenizer over terminal_user (external content, kept by
 * triggers). PostgreSQL: pg_trgm GIN indexes on the lower-cased columns the search compares, made
 * only where the extension may be created (it is "trusted": the database's CREATE right is enough);
 * without them the search still works, by reading the users. Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_extension where extname = 'pg_trgm')
          or (exists (select 1 from pg_available_extensions where name = 'pg_trgm')
              and has_database_privilege(current_database(), 'CREATE')) as ok`.execute(db);
    if (!rows[0]?.ok) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    for (const column of ['UserName', 'MobilePhone', 'ICCID']) {
      await sql`create index ${sql.id(`user_search_${column}`)} on terminal_user
        using gin (lower(${sql.ref(column)}) gin_trgm_ops)`.execute(db);
    }
    return;
  }
  await sql`create virtual table user_search using fts5(
    "UserName", "MobilePhone", "ICCID",
    content = 'terminal_user', content_rowid = 'UserID', tokenize = 'trigram')`.execute(db);
  await sql`insert into user_search (user_search) values ('rebuild')`.execute(db);
  await sql`create trigger user_search_insert after insert on terminal_user begin
    insert into user_search (rowid, "UserName", "MobilePhone", "ICCID")
      values (new."UserID", new."UserName", new."MobilePhone", new."ICCID");
  end`.execute(db);
  await sql`create trigger user_search_delete after delete on terminal_user begin
    insert into user_search (user_search, rowid, "UserName", "MobilePhone", "ICCID")
      values ('delete', old."UserID", old."UserName", old."MobilePhone", old."ICCID");
  end`.execute(db);
  await sql`create trigger user_search_update after update of "UserName", "MobilePhone", "ICCID" on terminal_user begin
    insert into user_search (user_search, rowid, "UserName", "MobilePhone", "ICCID")
      values ('delete', old."UserID", old."UserName", old."MobilePhone", old."ICCID");
    insert into user_search (rowid, "UserName", "MobilePhone", "ICCID")
      values (new."UserID", new."UserName", new."MobilePhone", new."ICCID");
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const column of ['UserName', 'MobilePhone', 'ICCID']) {
      await sql`drop index if exists ${sql.id(`user_search_${column}`)}`.execute(db);
    }
    return;
  }
  for (const trigger of ['user_search_insert', 'user_search_delete', 'user_search_update']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists user_search`.execute(db);
}
