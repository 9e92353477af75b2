import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/** A table whose rows belong to one enterprise (`E_ID`), with a column unique within it. */
type EnterpriseTable = { [T in keyof DB]: 'E_ID' extends keyof DB[T] ? T : never }[keyof DB];

/**
 * True when another row of the enterprise (any but `exceptId`, 0 for none) already holds `value` in
 * `column`: the check services make before a create or rename so the error names the field.
 */
export async function valueTaken<T extends EnterpriseTable>(
  db: Kysely<DB>,
  table: T,
  columns: { id: keyof DB[T] & string; unique: keyof DB[T] & string },
  enterpriseId: number,
  value: string,
  exceptId = 0,
): Promise<boolean> {
  // The table is a parameter, which Kysely's builder cannot type; the columns are checked above.
  const id: string = columns.id;
  const unique: string = columns.unique;
  const row: unknown = await (db as unknown as Kysely<any>)
    .selectFrom(table as string)
    .select(id)
    .where('E_ID', '=', enterpriseId)
    .where(unique, '=', value)
    .where(id, '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}
