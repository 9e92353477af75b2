import { MessageKeys, type QueryParams } from '@intercom/contract';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { AppError } from '../http/AppError.js';
import type { Scope } from '../tenancy/scope.js';
import type { EntityDefinition } from './EntityDefinition.js';
import { parseCondition, type Condition } from './parseCondition.js';

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The operators that compare a field with one value, as SQL writes them. */
const COMPARISONS = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function isComparison(op: Condition['op']): op is keyof typeof COMPARISONS {
  return op in COMPARISONS;
}

function toExpression(eb: ExpressionBuilder<any, any>, c: Condition): Expression<SqlBool> {
  const ref = eb.ref(c.field);
  if (isComparison(c.op)) return eb(ref, COMPARISONS[c.op], c.value);
  switch (c.op) {
    case 'in':
      return eb(ref, 'in', c.value as (string | number)[]);
    case 'between': {
      const [low, high] = c.value as (string | number)[];
      return eb.between(ref, low, high);
    }
    case 'like':
      return sql<SqlBool>`lower(${ref}) like lower(${`%${escapeLike(String(c.value))}%`}) escape '\\'`;
  }
}

/** The filtered, scoped base query of an entity: `E_ID in scope` is never left out. */
export function scopedQuery(db: Kysely<DB>, def: EntityDefinition, scope: Scope, jsonCondition: string) {
  const virtual = def.virtualFields ?? {};
  const virtualTypes = Object.fromEntries(Object.entries(virtual).map(([name, v]) => [name, v.type]));
  const conditions = parseCondition(jsonCondition, { ...def.fields, ...virtualTypes });
  const anyDb = db as unknown as Kysely<any>;
  const dialect = dialectOf(db);
  return anyDb
    .selectFrom(def.table)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .where((eb) =>
      eb.and(
        conditions.map((c) =>
          Object.hasOwn(virtual, c.field) ? virtual[c.field]!.where(eb, c, scope, dialect) : toExpression(eb, c),
        ),
      ),
    );
}

export function orderOf(def: EntityDefinition, orderField: string, desc: boolean) {
  if (orderField === '') return def.defaultOrder;
  if (!Object.hasOwn(def.fields, orderField)) throw AppError.field('orderField', MessageKeys.badOrderField);
  return { field: orderField, desc };
}

/** QueryData: one page of rows in scope and the total count of the filter. */
export async function queryEntity(db: Kysely<DB>, def: EntityDefinition, scope: Scope, params: QueryParams) {
  const base = scopedQuery(db, def, scope, params.jsonCondition);
  const order = orderOf(def, params.orderField, params.desc);
  const fields = Object.keys(def.fields);
  const [rows, count] = await Promise.all([
    base
      .select(fields)
      .orderBy(order.field, order.desc ? 'desc' : 'asc')
      .orderBy(fields[0] ?? order.field, order.desc ? 'desc' : 'asc')
      .limit(params.pageSize)
      .offset(params.pageIndex * params.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const page = rows as Record<string, unknown>[];
  return { rows: def.completeRows ? await def.completeRows(db, page) : page, total: Number(count?.n ?? 0) };
}
