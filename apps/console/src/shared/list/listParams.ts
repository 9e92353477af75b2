import { Limits } from '@intercom/contract';
import type { QueryValues } from '../api/apiClient';

/** A `jsonCondition` object: `{ field: value }` or `{ field: { op: value } }` (DESIGN.md section 4). */
export type Condition = Record<string, unknown>;

/** Paging, order and filter of a generic QueryData call; pageIndex starts at 0 as on the API. */
export interface ListParams {
  pageIndex: number;
  pageSize: number;
  /** Empty: the entity's default order. */
  orderField: string;
  desc: boolean;
  condition: Condition;
}

export const DEFAULT_LIST_PARAMS: ListParams = {
  pageIndex: Limits.defaultPageIndex,
  pageSize: Limits.defaultPageSize,
  orderField: '',
  desc: false,
  condition: {},
};

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isEmpty);
  return false;
}

/** Drops fields the user left empty, so they filter nothing (and the server sees no stray field). */
export function cleanCondition(condition: Condition): Condition {
  return Object.fromEntries(Object.entries(condition).filter(([, value]) => !isEmpty(value)));
}

/** The query string of QueryData / ExportData. */
export function listQuery(params: ListParams, paged = true): QueryValues {
  const condition = cleanCondition(params.condition);
  return {
    jsonCondition: Object.keys(condition).length > 0 ? JSON.stringify(condition) : undefined,
    ...(paged ? { pageIndex: params.pageIndex, pageSize: params.pageSize } : {}),
    orderField: params.orderField || undefined,
    desc: params.orderField ? params.desc : undefined,
  };
}

/** A range picker's value: either end may be open. */
export type TimeRange = [{ valueOf(): number } | null, { valueOf(): number } | null] | null | undefined;

/** A time range as a condition: between both ends, from one end, or none. */
export function timeRangeCondition(range: TimeRange): Condition | undefined {
  const [from, to] = range ?? [];
  if (from && to) return { between: [from.valueOf(), to.valueOf()] };
  if (from) return { gte: from.valueOf() };
  if (to) return { lte: to.valueOf() };
  return undefined;
}
