import type { Kysely } from 'kysely';

/**
 * Issue 51: `notification.Detail` holds the details the platform writes as JSON
 * `{ "key": "alarms.detail.battery", "params": { "percent": 9 } }`, so every console shows them in
 * its reader's language. `Content` stays as it was (the same words in English: search, export, older
 * clients); rows stored before have no Detail and keep showing their Content. Frozen in time: no
 * application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification').addColumn('Detail', 'varchar(1024)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification').dropColumn('Detail').execute();
}
