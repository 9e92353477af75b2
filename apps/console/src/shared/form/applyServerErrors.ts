import type { FormInstance } from 'antd';
import { isApiError } from '../api/ApiError';

/**
 * Puts the field errors of a 4000 answer (`Data: [{field, key}]`) under the form's fields.
 * `fieldNames` maps a server field name to the form's when they differ. Returns whether any
 * error found a field, so the caller toasts only what could not be shown in place.
 */
export function applyServerErrors(
  form: FormInstance,
  error: unknown,
  translate: (key: string) => string,
  fieldNames: Record<string, string> = {},
): boolean {
  if (!isApiError(error) || error.fields.length === 0) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true) as Record<string, unknown>));
  const byField = new Map<string, string[]>();
  for (const { field, key } of error.fields) {
    const name = fieldNames[field] ?? field;
    if (!known.has(name)) continue;
    byField.set(name, [...(byField.get(name) ?? []), translate(key)]);
  }
  form.setFields([...byField].map(([name, errors]) => ({ name, errors })));
  return byField.size > 0;
}
