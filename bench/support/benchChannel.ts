import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The U_IDs of seeded terminal users, by phone, in the order given. */
export function benchChannelMembers(dataDir: string, phones: readonly string[]): number[] {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  try {
    const find = db.prepare(`select "UserID" from terminal_user where "MobilePhone" = ?`);
    return phones.map((phone) => (find.get(phone) as { UserID: number }).UserID);
  } finally {
    db.close();
  }
}

/** A channel of enterprise 1 with these members (priority 0), written straight to the database; returns its CID. */
export function createBenchChannel(dataDir: string, name: string, uids: readonly number[]): number {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  try {
    const cid = Number(
      db
        .prepare(
          `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,?,106,'',0,0,0,?)`,
        )
        .run(name, Date.now()).lastInsertRowid,
    );
    const member = db.prepare(`insert into channel_member ("CID","UserID","E_ID","Priority") values (?,?,1,0)`);
    for (const uid of uids) member.run(cid, uid);
    return cid;
  } finally {
    db.close();
  }
}
