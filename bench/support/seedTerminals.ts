import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { hashPassword } from '../../apps/server/src/auth/passwords.js';

/** Password of every seeded terminal and console account; hashed with scrypt 2^10 so logins stay cheap. */
export const SEED_PASSWORD = 'Bench#2026';
export const terminalPhone = (i: number) => `136${String(i).padStart(8, '0')}`;

export interface SeedTarget {
  /** The running server's SQLite data directory, or a PostgreSQL URL. */
  dataDir?: string;
  databaseUrl?: string;
}

/** What to do on a seed target: one function per database kind (SQLite's runs synchronously). */
export interface TargetWork<T> {
  postgres: (client: pg.Client) => Promise<T>;
  sqlite: (db: SQLite.Database) => T;
}

/**
 * Runs `work` on the target's database and closes the connection after. The server writes to the
 * same SQLite file meanwhile, so a writer waits for its lock instead of failing at once.
 */
export async function onTarget<T>(target: SeedTarget, work: TargetWork<T>, readonly = false): Promise<T> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await work.postgres(client);
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(path.join(target.dataDir as string, 'intercom.sqlite'), { readonly });
  if (!readonly) db.pragma('busy_timeout = 10000');
  try {
    return work.sqlite(db);
  } finally {
    db.close();
  }
}

/**
 * Terminal users 136xxxxxxxx (0..count-1) and console admin accounts bench1..benchN in the DEMO
 * enterprise, written straight into the running server's database (WAL lets both write).
 */
export async function seedTerminals(target: SeedTarget, count: number, accounts: number): Promise<void> {
  const hash = await hashPassword(SEED_PASSWORD, 10);
  const now = Date.now();
  const users = Array.from({ length: count }, (_, i) => [`Bench${i}`, terminalPhone(i)] as const);
  const logins = Array.from({ length: accounts }, (_, i) => `bench${i + 1}`);
  await onTarget(target, {
    postgres: async (client) => {
      await client.query('begin');
      await client.query(`update enterprise set "Quota" = $1 where "E_Code" = 'DEMO'`, [count + 1000]);
      for (let i = 0; i < users.length; i += 1000) {
        const chunk = users.slice(i, i + 1000);
        await client.query(
          `insert into terminal_user ("E_ID","UserName","MobilePhone","UType","PriorityLevel","IsLock","Caps","PasswordHash","GPSConfig","Remark","CreatedAt")
           select 1, n, p, 0, 0, 0, 6, $3, '', '', $4 from unnest($1::text[], $2::text[]) as t(n, p)`,
          [chunk.map((u) => u[0]), chunk.map((u) => u[1]), hash, now],
        );
      }
      for (const name of logins) {
        await client.query(
          `insert into account ("E_ID","LoginName","Name","Mail","PasswordHash","Role","Disabled","FailedCount","CreatedAt") values (1,$1,$1,'',$2,'admin',0,0,$3)`,
          [name, hash, now],
        );
      }
      await client.query('commit');
    },
    sqlite: (db) =>
      db.transaction(() => {
        db.prepare(`update enterprise set "Quota" = ? where "E_Code" = 'DEMO'`).run(count + 1000);
        const user = db.prepare(
          `insert into terminal_user ("E_ID","UserName","MobilePhone","UType","PriorityLevel","IsLock","Caps","PasswordHash","GPSConfig","Remark","CreatedAt") values (1,?,?,0,0,0,6,?,'','',?)`,
        );
        for (const [name, phone] of users) user.run(name, phone, hash, now);
        const account = db.prepare(
          `insert into account ("E_ID","LoginName","Name","Mail","PasswordHash","Role","Disabled","FailedCount","CreatedAt") values (1,?,?,'',?,'admin',0,0,?)`,
        );
        for (const name of logins) account.run(name, name, hash, now);
      })(),
  });
}

/** Rows in location_history now. */
export async function historyCount(target: SeedTarget): Promise<number> {
  const sql = 'select count(*) as n from location_history';
  return onTarget(
    target,
    {
      postgres: async (client) => Number((await client.query(sql)).rows[0]?.n ?? 0),
      sqlite: (db) => (db.prepare(sql).get() as { n: number }).n,
    },
    true,
  );
}

/**
 * An enterprise `code` with no terminal user and one admin account `loginName` (password
 * SEED_PASSWORD): its live map is empty whatever the other enterprises do.
 */
export async function seedEmptyEnterprise(target: SeedTarget, code: string, loginName: string): Promise<void> {
  const hash = await hashPassword(SEED_PASSWORD, 10);
  const now = Date.now();
  const enterprise = `insert into enterprise ("E_Code","E_Name","P_ID","A_ID","Quota","ExpireAt","Disabled","CreatedAt") values `;
  const account = `insert into account ("E_ID","LoginName","Name","Mail","PasswordHash","Role","Disabled","FailedCount","CreatedAt") values `;
  await onTarget(target, {
    postgres: async (client) => {
      const row = await client.query<{ E_ID: number }>(
        `${enterprise} ($1,$1,null,null,10,null,0,$2) returning "E_ID"`,
        [code, now],
      );
      await client.query(`${account} ($1,$2,$2,'',$3,'admin',0,0,$4)`, [row.rows[0]!.E_ID, loginName, hash, now]);
    },
    sqlite: (db) =>
      db.transaction(() => {
        const { lastInsertRowid } = db.prepare(`${enterprise} (?,?,null,null,10,null,0,?)`).run(code, code, now);
        db.prepare(`${account} (?,?,?,'',?,'admin',0,0,?)`).run(lastInsertRowid, loginName, loginName, hash, now);
      })(),
  });
}
