import { MessageKeys, QUERY_OPS, type QueryOp } from '@intercom/contract';
import { AppError } from '../http/AppError.js';
import type { FieldType } from './EntityDefinition.js';

export interface Condition {
  field: string;
  op: QueryOp;
  value: string | number | (string | number)[];
}

const MAX_IN = 500;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function scalar(field: string, type: FieldType, value: unknown): string | number {
  if (type === 'string') {
    // PostgreSQL text cannot hold NUL: such a value could never match, and pg would throw.
    if (typeof value === 'string' && value.length <= 256 && !value.includes('\u0000')) return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw AppError.field(field, MessageKeys.badCondition);
  }
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  const integer = type === 'int' || type === 'bigint' || type === 'time';
  if (typeof n !== 'number' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw AppError.field(field, MessageKeys.notNumber);
  }
  const outOfRange =
    (type === 'int' && (n < INT32_MIN || n > INT32_MAX)) ||
    ((type === 'bigint' || type === 'time') && !Number.isSafeInteger(n));
  if (outOfRange) throw AppError.field(field, MessageKeys.outOfRange);
  return n;
}

function isQueryOp(op: string): op is QueryOp {
  return (QUERY_OPS as readonly string[]).includes(op);
}

/**
 * Parses `jsonCondition` against an entity's allowlist. Unknown fields, unknown operators and
 * values of the wrong type are a 4000 naming the field; values are only ever bound parameters.
 */
export function parseCondition(text: string, fields: Record<string, FieldType>): Condition[] {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw AppError.field('jsonCondition', MessageKeys.badCondition);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw AppError.field('jsonCondition', MessageKeys.badCondition);
  }
  const conditions: Condition[] = [];
  for (const [field, raw] of Object.entries(parsed)) {
    const type = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (!type) throw AppError.field(field, MessageKeys.unknownField);
    if (raw === null || raw === '') continue;
    if (typeof raw !== 'object') {
      conditions.push({ field, op: 'eq', value: scalar(field, type, raw) });
      continue;
    }
    if (Array.isArray(raw)) throw AppError.field(field, MessageKeys.badCondition);
    for (const [op, value] of Object.entries(raw as Record<string, unknown>)) {
      if (!isQueryOp(op)) throw AppError.field(field, MessageKeys.unknownOp);
      if (op === 'in' || op === 'between') {
        const expected = op === 'between' ? 2 : undefined;
        if (
          !Array.isArray(value) ||
          value.length === 0 ||
          value.length > MAX_IN ||
          (expected && value.length !== expected)
        ) {
          throw AppError.field(field, MessageKeys.badCondition);
        }
        conditions.push({ field, op, value: value.map((v) => scalar(field, type, v)) });
      } else if (op === 'like') {
        if (type !== 'string') throw AppError.field(field, MessageKeys.unknownOp);
        conditions.push({ field, op, value: scalar(field, type, value) });
      } else {
        conditions.push({ field, op, value: scalar(field, type, value) });
      }
    }
  }
  return conditions;
}
