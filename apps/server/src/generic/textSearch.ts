import { MessageKeys } from '@intercom/contract';
import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError } from '../http/AppError.js';
import type { VirtualField } from './EntityDefinition.js';

/** `%value%` for LIKE, lower-cased, with LIKE's own wildcards escaped. */
export function containsPattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Where the migration 2026112400_user_search indexed the columns for substring search. SQLite: an
 * FTS5 table with the trigram tokenizer (`ftsTable`, rowid = the row's key). PostgreSQL: pg_trgm
 * indexes on `lower(column)` of `table`. Either answers a search of 3 characters or more; a shorter
 * one (a 2-character Chinese name) reads the rows.
 */
export interface TrigramIndex {
  table: string;
  ftsTable: string;
  key: string;
}

/** Trigram indexes need at least 3 characters (code points) to find a substring. */
const TRIGRAM_MIN = 3;

/**
 * A search-box filter: `{ "<name>": "text" }` matches rows where any of `columns` contains the
 * text, case-insensitively. Only equality is allowed.
 */
export function textSearchField(columns: readonly string[], trigram?: TrigramIndex): VirtualField {
  return {
    type: 'string',
    where: (eb, c, scope, dialect) => {
      if (c.op !== 'eq') throw AppError.field(c.field, MessageKeys.unknownOp);
      const text = String(c.value);
      const pattern = containsPattern(text);
      const contains = (ref: (column: string) => Expression<unknown>) =>
        columns.map((column) => sql<SqlBool>`lower(${ref(column)}) like ${pattern} escape '\\'`);
      if (trigram && [...text].length >= TRIGRAM_MIN) {
        if (dialect === 'sqlite') {
          // One FTS5 phrase: the text as it is, quotes doubled; trigram matches it anywhere in a column.
          const phrase = `"${text.replace(/"/g, '""')}"`;
          const fts = sql.table(trigram.ftsTable);
          return sql<SqlBool>`${eb.ref(trigram.key)} in (select rowid from ${fts} where ${fts} match ${phrase})`;
        }
        // The matching keys as a subquery the planner may not flatten (OFFSET 0): it then reads them
        // from the pg_trgm indexes first. Flattened, it walks the key index for "ORDER BY key LIMIT
        // 10" and tests every row it passes, which reads all users when the match is rare.
        const ids = [...scope.enterpriseIds];
        const matches = contains((column) => sql.ref(column));
        return sql<SqlBool>`${eb.ref(trigram.key)} in (select ${sql.ref(trigram.key)} from ${sql.table(trigram.table)}
          where ${sql.ref('E_ID')} in (${sql.join(ids)}) and (${sql.join(matches, sql` or `)}) offset 0)`;
      }
      return eb.or(contains((column) => eb.ref(column)));
    },
  };
}
