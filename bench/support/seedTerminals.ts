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

/**
 * Terminal users 136xxxxxxxx (0..count-1) and console admin accounts bench1..benchN in the DEMO
 * enterprise, written straight into the running server's database (WAL lets both write).
 */
export async function seedTerminals(target: SeedTarget, count: number, accounts: number): Promise<void> {
  const hash = await hashPassword(SEED_PASSWORD, 10);
  const now = Date.now();
  const users = Array.from({ length: count }, (_, i) => [`Bench${i}`, terminalPhone(i)] as const);
  const logins = Array.from({ length: accounts }, (_, i) => `bench${i + 1}`);
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
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
    } finally {
      await client.end();
    }
    return;
  }
  const db = new SQLite(path.join(target.dataDir as string, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  try {
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
    })();
  } finally {
    db.close();
  }
}

/** Rows in location_history now. */
export async function historyCount(target: SeedTarget): Promise<number> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return Number((await client.query('select count(*) as n from location_history')).rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(path.join(target.dataDir as string, 'intercom.sqlite'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from location_history').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
