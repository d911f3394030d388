import { validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';

/** Reads SuperTokens-style `formFields: [{id, value}]` into a record; unknown ids are ignored. */
export function readFormFields(formFields: Array<{ id: string; value: unknown }>, allowed: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of formFields) if (allowed.includes(f.id)) out[f.id] = f.value;
  return out;
}

/** Collects rule failures (translation keys) per field and throws one 400 naming them all. */
export class FieldErrors {
  private readonly details: ErrorDetail[] = [];

  add(field: string, key: string | null, vars?: Record<string, string | number>): this {
    if (key && !this.details.some((d) => d.field === field)) this.details.push({ field, key, vars });
    return this;
  }

  throwIfAny(): void {
    if (this.details.length) throw validationFailed(this.details);
  }
}

export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
export const bool = (v: unknown): boolean => v === true || v === 'true';
