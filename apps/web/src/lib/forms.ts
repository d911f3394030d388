/** Glue between the shared validation rules (which return translation keys) and Mantine forms. */
import type { TFunction } from 'i18next';
import { isApiError } from '../api/client';

type Rule = (value: string) => string | null;

/** Turns a shared rule into a Mantine validator that returns translated text. */
export function tr(t: TFunction, rule: Rule, vars?: Record<string, string>) {
  return (value: unknown) => {
    const key = rule(typeof value === 'string' ? value : '');
    return key ? t(key, vars) : null;
  };
}

/** Required-field validator with the field label in the message. */
export function required(t: TFunction, fieldKey: string) {
  return (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? null : t('validation.required', { field: t(fieldKey) }));
}

/**
 * Copies the server's per-field errors (`details: [{field, message, key?}]`) onto a form. `fieldMap` maps server
 * field names to form paths (e.g. `address.phone` → `phone`). Returns true when at least one field got an error.
 */
export function applyServerErrors(
  form: { setFieldError: (path: string, error: string) => void; values: object },
  error: unknown,
  fieldMap: Record<string, string> = {},
): boolean {
  if (!isApiError(error) || error.details.length === 0) return false;
  let applied = false;
  for (const d of error.details) {
    const path = fieldMap[d.field] ?? d.field.replace(/^\//, '').replace(/\//g, '.');
    const top = path.split('.')[0];
    if (!(top in form.values) && !(path in form.values)) continue;
    // The server localises `message` already (cookie lng / Accept-Language); use it as is.
    form.setFieldError(path, d.message);
    applied = true;
  }
  return applied;
}
