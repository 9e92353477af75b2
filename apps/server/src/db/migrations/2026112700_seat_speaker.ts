import { sql, type Kysely } from 'kysely';

/**
 * Issue 30: a dispatcher seat's own bursts name the seat. A seat is no terminal user (U_ID stays null),
 * so the recording keeps the seat's dispatch number and account name, and the view shows them where a
 * terminal speaker's name and phone would be (the history's speaker column, its search and export). The
 * other party of a private call with a seat is named the same way.
 * Frozen in time: no application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('recording').addColumn('SpeakerNo', 'varchar(32)').execute();
  await db.schema.alterTable('recording').addColumn('SpeakerName', 'varchar(64)').execute();
  await db.schema.alterTable('recording').addColumn('ToSpeakerName', 'varchar(64)').execute();
  await db.schema.dropView('recording_view').ifExists().execute();
  await createView(db, true);
}

async function createView(db: Kysely<any>, seats: boolean): Promise<void> {
  const name = (column: string, seatColumn: string) =>
    seats ? sql`coalesce(${sql.ref(column)}, ${sql.ref(seatColumn)})` : sql.ref(column);
  await db.schema
    .createView('recording_view')
    .as(
      db
        .selectFrom('recording as r')
        .leftJoin('channel as c', 'c.CID', 'r.CID')
        .leftJoin('terminal_user as u', 'u.UserID', 'r.U_ID')
        .leftJoin('terminal_user as p', 'p.UserID', 'r.ToU_ID')
        .select([
          'r.R_ID',
          'r.E_ID',
          'r.RType',
          'r.CID',
          'c.CName',
          'r.U_ID',
          name('u.UserName', 'r.SpeakerName').as('UserName'),
          name('u.MobilePhone', 'r.SpeakerNo').as('MobilePhone'),
          'r.ToU_ID',
          name('p.UserName', 'r.ToSpeakerName').as('ToUserName'),
          'r.StartAt',
          'r.Duration',
          'r.Size',
        ]),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropView('recording_view').ifExists().execute();
  await createView(db, false);
  for (const column of ['ToSpeakerName', 'SpeakerName', 'SpeakerNo']) {
    await db.schema.alterTable('recording').dropColumn(column).execute();
  }
}
