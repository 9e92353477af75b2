import { MessageKeys } from '@intercom/contract';
import { sql, type SqlBool } from 'kysely';
import { AppError } from '../http/AppError.js';
import type { VirtualField } from './EntityDefinition.js';

/** `%value%` for LIKE, lower-cased, with LIKE's own wildcards escaped. */
export function containsPattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * A search-box filter: `{ "<name>": "text" }` matches rows where any of `columns` contains the
 * text, case-insensitively. Only equality is allowed.
 */
export function textSearchField(columns: readonly string[]): VirtualField {
  return {
    type: 'string',
    where: (eb, c) => {
      if (c.op !== 'eq') throw AppError.field(c.field, MessageKeys.unknownOp);
      const pattern = containsPattern(String(c.value));
      return eb.or(columns.map((column) => sql<SqlBool>`lower(${eb.ref(column)}) like ${pattern} escape '\\'`));
    },
  };
}
