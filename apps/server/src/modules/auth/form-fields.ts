/** Reads SuperTokens-style `formFields: [{id, value}]` into a record; unknown ids are ignored. */
export function readFormFields(
  formFields: ReadonlyArray<{ id: string; value: string | boolean }>,
  allowed: readonly string[],
): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const f of formFields) if (allowed.includes(f.id)) out[f.id] = f.value;
  return out;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
export const bool = (v: unknown): boolean => v === true || v === 'true';
