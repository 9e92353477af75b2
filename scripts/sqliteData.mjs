// What `npm run backup` and `npm run restore` share: where the data directory is and which of its
// files are the SQLite database (copied through SQLite, never as plain files).
import path from 'node:path';
import Database from 'better-sqlite3';

export const DB_FILE = 'intercom.sqlite';
const DB_FILES = new Set([DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, `${DB_FILE}-journal`]);

/** DATA_DIR as the server reads it (default ./data, relative to where npm runs). */
export function dataDir(env = process.env) {
  return path.resolve(env.DATA_DIR || './data');
}

/** Entries of a data directory other than the database (uploaded media, recordings). */
export const isDatabaseFile = (name) => DB_FILES.has(name);

/** Refuses to run against PostgreSQL: pg_dump and pg_restore do that (docs/operations.md). */
export function refusePostgres(env, what) {
  if (!env.DATABASE_URL) return;
  process.stderr.write(
    `DATABASE_URL is set: the data is in PostgreSQL, which ${what} does not copy.\n` +
      'Use pg_dump / pg_restore (docs/operations.md "Backups"); the files under DATA_DIR are copied with any file tool.\n',
  );
  process.exit(2);
}

/** `PRAGMA quick_check` of a database file: 'ok' or what is wrong. */
export function quickCheck(file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('quick_check', { simple: true });
  } finally {
    db.close();
  }
}

/**
 * True while another process (a running server) has the database open. A WAL connection holds a
 * shared lock on the file for as long as it is open, so an exclusive one cannot be had.
 */
export function inUse(file) {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    return false;
  } catch (error) {
    if (error && typeof error === 'object' && String(error.code).startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}
