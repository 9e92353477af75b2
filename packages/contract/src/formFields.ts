import { z } from 'zod';
import { MessageKeys } from './messages.js';

/**
 * Field schemas for bodies that arrive as a form (every value a string) or as JSON (numbers,
 * booleans, arrays). Each failure carries an i18n key as its message, so the server's 4000 answer
 * and the console's form show the same key under the field.
 */

const INT32_MAX = 2 ** 31 - 1;

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function toNumber(value: unknown): unknown {
  if (blank(value)) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    return /^[-+]?\d+$/.test(text) ? Number(text) : value;
  }
  return value;
}

function toBoolean(value: unknown): unknown {
  if (blank(value)) return undefined;
  if (value === true || value === 1 || value === 'true' || value === '1') return true;
  if (value === false || value === 0 || value === 'false' || value === '0') return false;
  return value;
}

const keyed = (key: string) => ({ error: key });
const requiredOr = (key: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? MessageKeys.required : key),
});

function intSchema(min: number, max: number) {
  return z
    .number(requiredOr(MessageKeys.notNumber))
    .int(keyed(MessageKeys.notNumber))
    .min(min, keyed(MessageKeys.outOfRange))
    .max(max, keyed(MessageKeys.outOfRange));
}

/** A required integer in [min, max]; a form sends it as digits. */
export const formInt = (min: number, max: number) => z.preprocess(toNumber, intSchema(min, max));

/** An optional integer in [min, max]; blank counts as absent. */
export const optionalFormInt = (min: number, max: number) => z.preprocess(toNumber, intSchema(min, max).optional());

/** A database id (positive 32-bit integer). */
export const formId = () => formInt(1, INT32_MAX);
/** An id where 0 or blank means "none" (OSID 0 = create, OSParentID 0 = under the enterprise). */
export const formIdOrZero = () => z.preprocess((v) => (blank(v) ? 0 : toNumber(v)), intSchema(0, INT32_MAX));

/** An id in a JSON body, a number as it is (no text), `min` or more; zod's own messages. */
export const jsonId = (min = 1) => z.number().int().min(min).max(INT32_MAX);

/** A required boolean: true/false, 1/0 (text or JSON). */
export const formBool = () => z.preprocess(toBoolean, z.boolean(requiredOr(MessageKeys.invalid)));
export const optionalFormBool = () => z.preprocess(toBoolean, z.boolean(requiredOr(MessageKeys.invalid)).optional());

/** Text without NUL or other control characters but tab and line breaks (PostgreSQL text cannot hold NUL). */
function noControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** Counts characters as a person does (code points). */
const chars = (text: string) => [...text].length;

/** Trimmed text of at most `max` characters; `min` 1 makes it required (not empty). */
export function formText(max: number, min = 0) {
  return z
    .string(requiredOr(MessageKeys.invalid))
    .trim()
    .refine((v) => chars(v) >= min, keyed(MessageKeys.required))
    .refine((v) => chars(v) <= max, keyed(MessageKeys.tooLong))
    .refine(noControl, keyed(MessageKeys.invalid));
}

/** Optional trimmed text; absent stays absent ("unchanged" on an edit), '' is a value. */
export const optionalFormText = (max: number) => formText(max).optional();

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toEpochMs(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    // A bare date means the end of that day in UTC: a user "expiring on the 5th" works all day.
    const ms = Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]), 23, 59, 59, 999);
    const back = new Date(ms);
    return back.getUTCDate() === Number(dateOnly[3]) ? ms : value;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? value : ms;
  }
  return value;
}

/** Upper bound of a date field: the year 9999. */
const MAX_DATE_MS = 253_402_300_799_999;

/**
 * An optional date: epoch milliseconds, `YYYY-MM-DD` (end of that day, UTC) or an ISO date-time.
 * Absent stays absent; blank or null means "no date" (null).
 */
export const optionalFormDate = () =>
  z.preprocess(
    toEpochMs,
    z
      .number(requiredOr(MessageKeys.badDate))
      .int(keyed(MessageKeys.badDate))
      .min(0, keyed(MessageKeys.badDate))
      .max(MAX_DATE_MS, keyed(MessageKeys.badDate))
      .nullable()
      .optional(),
  );

/**
 * A list of ids, the one parser of every call that takes them: a JSON array, a JSON array as text
 * (`uids=[8]` in a form), one number, or text separated by commas (`uids=8,9`). Duplicates collapse. `emptyKey` makes an empty list a failure with that key; without it an
 * empty list (or blank) is allowed.
 */
export function idList(max: number, emptyKey?: string) {
  return z.preprocess(
    (value) => {
      if (typeof value === 'number') return [value];
      if (typeof value !== 'string') return value;
      const text = value.trim();
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return value;
        }
      }
      return text === '' ? [] : text.split(',').map((p) => p.trim());
    },
    z
      .array(formId(), { error: (issue) => (issue.input === undefined ? MessageKeys.required : MessageKeys.invalid) })
      .max(max, { error: MessageKeys.tooManyItems })
      .refine((ids) => emptyKey === undefined || ids.length > 0, { error: emptyKey ?? MessageKeys.required })
      .transform((ids) => [...new Set(ids)]),
  );
}

/** A JSON array in a JSON body, or the same array as JSON text in a form field. */
export function formJsonArray<T extends z.ZodType>(
  item: T,
  max: number,
  tooManyKey: string = MessageKeys.tooManyItems,
) {
  return z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    },
    z.array(item, requiredOr(MessageKeys.invalid)).min(1, keyed(MessageKeys.required)).max(max, keyed(tooManyKey)),
  );
}
