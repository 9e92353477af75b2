import { z } from 'zod';
import { Limits } from './limits.js';

/** Operators a `jsonCondition` may use (DESIGN.md section 4). */
export const QUERY_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'in', 'between'] as const;
export type QueryOp = (typeof QUERY_OPS)[number];

const intText = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** Query string of the generic QueryData / ExportData calls. */
export const queryParamsSchema = z.object({
  jsonCondition: z.string().max(8192).optional().default(''),
  pageIndex: intText(0, 1_000_000, Limits.defaultPageIndex),
  pageSize: intText(1, Limits.maxPageSize, Limits.defaultPageSize),
  orderField: z.string().max(64).optional().default(''),
  desc: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .default('')
    .transform((v) => v === 'true' || v === '1'),
});
export type QueryParams = z.infer<typeof queryParamsSchema>;

export const exportParamsSchema = queryParamsSchema.omit({ pageIndex: true, pageSize: true }).extend({
  format: z.enum(['csv', 'xlsx']).optional().default('csv'),
  /**
   * The reader's offset from UTC in minutes (UTC+8: 480): times are written as that local time
   * ("2026-11-22 14:05:09"). Without it, UTC.
   */
  utcOffset: intText(-840, 840, 0),
});

/**
 * A path id is decimal digits only: `Number()` alone would read `1e3` as 1000 and `0x10` as 16, so an
 * id nobody wrote could be edited or deleted.
 */
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9]{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(2_147_483_647)),
});
