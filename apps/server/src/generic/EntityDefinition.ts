import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuthContext } from '../appDeps.js';
import type { DB } from '../db/schema.js';

/** How a field's values are checked in a jsonCondition. */
export type FieldType = 'int' | 'number' | 'string';

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
  save?: { body: z.ZodType; handler: (ctx: EntityContext, body: unknown) => Promise<unknown> };
}

export interface EntityContext {
  db: Kysely<DB>;
  auth: AuthContext;
  request: FastifyRequest;
}
