import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

/** What the users bench seeds: 10 top departments of 10 each, users spread over the 100 leaves. */
export interface Seeded {
  enterpriseId: number;
  topDepartments: number[];
  leafDepartments: number[];
  users: number;
}

const TOP = 10;
const PER_TOP = 10;
/** Any valid scrypt string: the bench never logs a terminal in. */
const HASH = 'scrypt$10$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Phone, name and ICCID of user i (0-based): unique and easy to search for. */
export const phoneOf = (i: number) => `139${String(i).padStart(8, '0')}`;
export const iccidOf = (i: number) => `8986${String(i).padStart(15, '0')}`;

/**
 * Seeds straight into the SQLite file the running server uses (WAL lets both write), in one
 * transaction: departments, `count` users with an ICCID each, and their inventory records.
 */
export function seedSqlite(dataDir: string, count: number): Seeded {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  try {
    const enterpriseId = (db.prepare(`select "E_ID" from enterprise where "E_Code" = 'DEMO'`).get() as { E_ID: number })
      .E_ID;
    return db.transaction(() => {
      db.prepare(`update enterprise set "Quota" = ? where "E_ID" = ?`).run(count * 2, enterpriseId);
      const organ = db.prepare(
        `insert into organ ("E_ID", "OSParentID", "OSName", "U_TypeID", "PriorityLevel") values (?, ?, ?, 0, 0)`,
      );
      const topDepartments = Array.from({ length: TOP }, (_, i) =>
        Number(organ.run(enterpriseId, 0, `Region ${i}`).lastInsertRowid),
      );
      const leafDepartments = topDepartments.flatMap((top, i) =>
        Array.from({ length: PER_TOP }, (_, j) =>
          Number(organ.run(enterpriseId, top, `Team ${i}-${j}`).lastInsertRowid),
        ),
      );
      const firstLeaf = leafDepartments[0] as number;
      db.prepare(
        `with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)
         insert into terminal_user ("E_ID", "OS_ID", "UserName", "MobilePhone", "ICCID", "UType", "PriorityLevel",
           "ExpireAt", "IsLock", "Caps", "PasswordHash", "GPSConfig", "Remark", "CreatedAt")
         select ?, ? + (i % ?), 'User' || printf('%06d', i), '139' || printf('%08d', i), '8986' || printf('%015d', i),
           0, i % 8, null, case when i % 97 = 0 then 1 else 0 end, 6, ?, '', '', ?
         from n`,
      ).run(count - 1, enterpriseId, firstLeaf, leafDepartments.length, HASH, Date.now());
      db.prepare(
        `insert into device ("E_ID", "DeviceCode", "ICCID", "NickName", "Priority", "OSID", "UType", "Remark", "UserID", "CreatedAt")
         select "E_ID", '', "ICCID", '', 0, null, 0, '', "UserID", "CreatedAt" from terminal_user where "E_ID" = ?`,
      ).run(enterpriseId);
      return { enterpriseId, topDepartments, leafDepartments, users: count };
    })();
  } finally {
    db.close();
  }
}

/** The same data through one PostgreSQL connection, then ANALYZE (what autovacuum would do soon after). */
export async function seedPostgres(databaseUrl: string, count: number): Promise<Seeded> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const e = await client.query<{ E_ID: number }>(`select "E_ID" from enterprise where "E_Code" = 'DEMO'`);
    const enterpriseId = Number(e.rows[0]?.E_ID);
    await client.query(`update enterprise set "Quota" = $1 where "E_ID" = $2`, [count * 2, enterpriseId]);
    const insertOrgan = async (parent: number, name: string) =>
      Number(
        (
          await client.query<{ OSID: number }>(
            `insert into organ ("E_ID", "OSParentID", "OSName", "U_TypeID", "PriorityLevel") values ($1, $2, $3, 0, 0) returning "OSID"`,
            [enterpriseId, parent, name],
          )
        ).rows[0]?.OSID,
      );
    const topDepartments: number[] = [];
    for (let i = 0; i < TOP; i++) topDepartments.push(await insertOrgan(0, `Region ${i}`));
    const leafDepartments: number[] = [];
    for (const [i, top] of topDepartments.entries()) {
      for (let j = 0; j < PER_TOP; j++) leafDepartments.push(await insertOrgan(top, `Team ${i}-${j}`));
    }
    await client.query(
      `insert into terminal_user ("E_ID", "OS_ID", "UserName", "MobilePhone", "ICCID", "UType", "PriorityLevel",
         "ExpireAt", "IsLock", "Caps", "PasswordHash", "GPSConfig", "Remark", "CreatedAt")
       select $1, ($2::int[])[1 + (i % $3)], 'User' || lpad(i::text, 6, '0'), '139' || lpad(i::text, 8, '0'),
         '8986' || lpad(i::text, 15, '0'), 0, i % 8, null, case when i % 97 = 0 then 1 else 0 end, 6, $4, '', '', $5
       from generate_series(0, $6 - 1) as i`,
      [enterpriseId, leafDepartments, leafDepartments.length, HASH, Date.now(), count],
    );
    await client.query(
      `insert into device ("E_ID", "DeviceCode", "ICCID", "NickName", "Priority", "OSID", "UType", "Remark", "UserID", "CreatedAt")
       select "E_ID", '', "ICCID", '', 0, null, 0, '', "UserID", "CreatedAt" from terminal_user where "E_ID" = $1`,
      [enterpriseId],
    );
    await client.query('commit');
    await client.query('analyze');
    return { enterpriseId, topDepartments, leafDepartments, users: count };
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database for one run; `drop` removes it. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `intercom_bench_${process.pid}_${Date.now()}`;
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}
