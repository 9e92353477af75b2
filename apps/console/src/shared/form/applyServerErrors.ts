import type { FormInstance } from 'antd';
import { isApiError } from '../api/ApiError';

type NamePath = (string | number)[];

/** `rows.3.MobilePhone` -> ['rows', 3, 'MobilePhone']: the form's path of a server field name. */
export function fieldPath(field: string): NamePath {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Puts the field errors of a 4000 answer (`Data: [{field, key}]`) under the form's fields; a
 * dotted name (`rows.3.MobilePhone`) reaches a field of a list. `fieldNames` maps a server field
 * name to the form's when they differ; `messageFields` puts an answer without field errors (a 4009
 * "name already exists") under the field it is about. Returns whether any error found a field, so
 * the caller toasts only what could not be shown in place.
 */
export function applyServerErrors(
  form: FormInstance,
  error: unknown,
  translate: (key: string) => string,
  fieldNames: Record<string, string> = {},
  messageFields: Record<string, string> = {},
): boolean {
  if (!isApiError(error)) return false;
  const fields =
    error.fields.length > 0
      ? error.fields
      : messageFields[error.key]
        ? [{ field: messageFields[error.key] as string, key: error.key }]
        : [];
  if (fields.length === 0) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true) as Record<string, unknown>));
  const byField = new Map<string, { name: NamePath; errors: string[] }>();
  for (const { field, key } of fields) {
    const name = fieldPath(fieldNames[field] ?? field);
    if (!known.has(String(name[0]))) continue;
    const id = name.join('.');
    const entry = byField.get(id) ?? { name, errors: [] };
    entry.errors.push(translate(key));
    byField.set(id, entry);
  }
  form.setFields([...byField.values()]);
  return byField.size > 0;
}
