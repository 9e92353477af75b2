import Database from 'better-sqlite3';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

export const COMPANY_CODE = 'DEMO';

export interface Credentials {
  account: string;
  password: string;
  code: string;
}

/** The running server's SQLite database (WAL: the server and a test may use it at once). */
function openDatabase(): Database.Database {
  return new Database(path.join(inject('dataDir'), 'intercom.sqlite'), { timeout: 10_000 });
}

/** The first-run administrator of enterprise DEMO (its password comes from globalSetup). */
export function adminCredentials(): Credentials {
  return { account: 'admin', password: inject('adminPassword'), code: COMPANY_CODE };
}

export interface SeedAccount {
  login: string;
  password: string;
  name?: string;
  role?: 'admin' | 'editor';
}

type HashPassword = (password: string, logN?: number) => Promise<string>;

/** scrypt cost of seeded accounts: low, like admin's in the test database (see globalSetup). */
const SEED_LOG_N = 12;

/** The server's own scrypt hashing, from the build under test (typecheck runs before any build). */
async function serverHashPassword(): Promise<HashPassword> {
  const file = path.join(inject('serverDist'), 'auth/passwords.js');
  const module = (await import(pathToFileURL(file).href)) as { hashPassword: HashPassword };
  return module.hashPassword;
}

/**
 * Adds (or resets) a console account of enterprise DEMO straight in the running server's SQLite
 * database, so a test that changes a password or locks an account never touches `admin`. Each
 * test file seeds accounts with its own names; the server is shared by all files of a run.
 */
export async function seedAccount(seed: SeedAccount, code = COMPANY_CODE): Promise<Credentials> {
  const hash = await (await serverHashPassword())(seed.password, SEED_LOG_N);
  const db = openDatabase();
  try {
    const enterprise = db.prepare('SELECT E_ID FROM enterprise WHERE E_Code = ?').get(code) as
      { E_ID: number } | undefined;
    if (!enterprise) throw new Error(`enterprise ${code} is missing from the database`);
    db.prepare(
      `INSERT INTO account (E_ID, LoginName, Name, Mail, PasswordHash, Role, Disabled, FailedCount, LockedUntil, CreatedAt)
       VALUES (@E_ID, @login, @name, '', @hash, @role, 0, 0, NULL, @now)
       ON CONFLICT (E_ID, LoginName) DO UPDATE SET PasswordHash = @hash, Name = @name, Role = @role,
         Disabled = 0, FailedCount = 0, LockedUntil = NULL`,
    ).run({
      E_ID: enterprise.E_ID,
      login: seed.login,
      name: seed.name ?? seed.login,
      hash,
      role: seed.role ?? 'admin',
      now: Date.now(),
    });
  } finally {
    db.close();
  }
  return { account: seed.login, password: seed.password, code };
}

/** Adds (once) a top-level enterprise of its own, beside DEMO, for tests about another tenant. */
export function seedEnterprise(code: string, name: string): void {
  const db = openDatabase();
  try {
    db.prepare(
      `INSERT INTO enterprise (E_Code, E_Name, P_ID, A_ID, Quota, ExpireAt, Disabled, CreatedAt)
       VALUES (?, ?, NULL, NULL, 10, NULL, 0, ?) ON CONFLICT DO NOTHING`,
    ).run(code, name, Date.now());
  } finally {
    db.close();
  }
}

/**
 * Ends the open sessions of an account the way the server would without this browser's doing:
 * `frozen` as when an administrator freezes the account (1001 on the next request), `expired`
 * as when the absolute lifetime of 12 hours has passed (50014).
 */
export function endSessionsOf(login: string, how: 'frozen' | 'expired'): number {
  const db = openDatabase();
  try {
    const accounts = `SELECT A_ID FROM account WHERE LoginName = @login
      AND E_ID = (SELECT E_ID FROM enterprise WHERE E_Code = @code)`;
    const now = Date.now();
    const statement =
      how === 'frozen'
        ? `UPDATE session SET EndedAt = @now, EndReason = 'frozen' WHERE EndedAt IS NULL AND A_ID IN (${accounts})`
        : `UPDATE session SET ExpiresAt = @now - 1000 WHERE EndedAt IS NULL AND A_ID IN (${accounts})`;
    return db.prepare(statement).run({ login, code: COMPANY_CODE, now }).changes;
  } finally {
    db.close();
  }
}
