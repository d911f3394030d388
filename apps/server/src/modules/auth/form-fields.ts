
/** Reads SuperTokens-style `formFields: [{id, value}]` into a record; unknown ids are ignored. */
export function readFormFields(formFields: Array<{ id: string; value: unknown }>, allowed: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of formFields) if (allowed.includes(f.id)) out[f.id] = f.value;
  return out;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
export const bool = (v: unknown): boolean => v === true || v === 'true';
