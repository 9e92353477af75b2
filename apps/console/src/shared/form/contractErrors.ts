import type { FieldError } from '@intercom/contract';
import type { ZodType } from 'zod';

/**
 * Runs a contract schema (the one the server validates the same body with) over form values and
 * returns its failures as `{field, key}`, the shape of a 4000 answer: `key` is the i18n key the
 * contract put in the issue, `field` the dotted path (`rows.2.ICCID`).
 */
export function contractErrors(schema: ZodType, values: unknown): FieldError[] {
  const result = schema.safeParse(values);
  if (result.success) return [];
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    // One message per field: the first rule it breaks.
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, key: issue.message });
  }
  return errors;
}
