import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from './schema.js';

// The table is a parameter, which Kysely's builder cannot type; the signatures check the columns
// and values against the table instead.
type AnyDb = Kysely<any>;

/** Inserts one row and returns its generated id (column `idColumn`). */
export async function insertReturningId<T extends keyof DB>(
  db: Kysely<DB>,
  table: T,
  idColumn: keyof DB[T] & string,
  values: Insertable<DB[T]>,
): Promise<number> {
  const column: string = idColumn;
  const row = (await (db as unknown as AnyDb)
    .insertInto(table as string)
    .values(values)
    .returning(column)
    .executeTakeFirstOrThrow()) as Record<string, number>;
  return row[column] as number;
}

/** Updates row `id` (column `idColumn`) with `values`; nothing to set runs no query. */
export async function updateById<T extends keyof DB>(
  db: Kysely<DB>,
  table: T,
  idColumn: keyof DB[T] & string,
  id: number,
  values: Updateable<DB[T]>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  const column: string = idColumn;
  await (db as unknown as AnyDb)
    .updateTable(table as string)
    .set(values)
    .where(column, '=', id)
    .execute();
}
