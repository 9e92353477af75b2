import type { FastifyRequest } from 'fastify';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { z } from 'zod';
import type { AuthContext } from '../auth/authContext.js';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { Scope } from '../tenancy/scope.js';
import type { Condition } from './parseCondition.js';

/**
 * How a field's values are checked in a jsonCondition. `int` is a 32-bit INTEGER column and
 * `bigint` a BIGINT one (ids of big tables): PostgreSQL refuses a parameter out of the column's
 * range with an error, so the range is checked before the query runs. `time` is a BIGINT of epoch
 * milliseconds, filtered like `bigint` and exported as a date and time.
 */
export type FieldType = 'int' | 'bigint' | 'time' | 'number' | 'string';

/**
 * One entity of the generic QueryData / ExportData / Delete / Save machinery (DESIGN.md section 4).
 * `fields` is the allowlist: only these may be filtered, sorted, returned and exported.
 */
export interface EntityDefinition<TRow extends Record<string, unknown> = Record<string, unknown>> {
  /** The URL segment: /api/{name}/QueryData. */
  name: string;
  table: keyof DB;
  fields: Record<string, FieldType>;
  defaultOrder: { field: string; desc: boolean };
  /** Only admins may read it. */
  adminOnly?: boolean;
  rowSchema: z.ZodType<TRow>;
  /** Columns of the export, in order; defaults to every field. */
  exportColumns?: string[];
  /** Deletes one row in scope; absent means the entity has no generic Delete. */
  remove?: (ctx: EntityContext, id: number) => Promise<void>;
  /** Creates or updates one row from a form; absent means no generic Save. */
  save?: {
    body: z.ZodType;
    handler: (ctx: EntityContext, body: unknown) => Promise<unknown>;
    /**
     * Runs on the raw body before validation: refuses ids outside the caller's scope first, so the
     * answer never depends on whether another enterprise's record exists or its form is valid.
     */
    scopeFirst?: (ctx: EntityContext, rawBody: unknown) => Promise<void>;
  };
  /**
   * Filters that are not columns (a department with its descendants, one search box over several
   * columns): allowed in a jsonCondition, never returned, sorted or exported.
   */
  virtualFields?: Record<string, VirtualField>;
  /**
   * Read-only values from other tables added to one page of QueryData rows (a device's channels):
   * never filtered, sorted or exported. Receives the page, returns it completed.
   */
  completeRows?: (db: Kysely<DB>, rows: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>;
}

export interface VirtualField {
  type: FieldType;
  /** The WHERE expression of one parsed condition; values stay bound parameters. */
  where: (eb: ExpressionBuilder<any, any>, condition: Condition, scope: Scope, dialect: Dialect) => Expression<SqlBool>;
}

export interface EntityContext {
  db: Kysely<DB>;
  auth: AuthContext;
  request: FastifyRequest;
}
