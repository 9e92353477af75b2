import type { Kysely } from 'kysely';

/**
 * A terminal's `resume` token (docs/terminal-protocol.md, "Login"): one per user, the newest password
 * login's. `TokenHash` is the SHA-256 of the token with the user's password hash at issue, so a new
 * password ends it without a write here; `ExpiresAt` ends it after TerminalLimits.resumeTtlMs.
 * Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_resume')
    .addColumn('UserID', 'integer', (c) => c.primaryKey())
    .addColumn('TokenHash', 'varchar(64)', (c) => c.notNull())
    .addColumn('ExpiresAt', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terminal_resume').ifExists().execute();
}
