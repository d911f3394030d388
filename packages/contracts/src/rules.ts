/**
 * Validation rules shared by the web app and the server (accounts.md §5, user-app.md §5). Each rule returns
 * null when the value passes, or the translation key of the first failing message.
 */

export const PASSWORD_MIN_LENGTH = 12;
export const OTP_LENGTH = 6;

/** accounts.md §5: "text@text without spaces". */
export function emailRule(value: string): string | null {
  return /^[^\s@]+@[^\s@]+$/.test(value) ? null : 'auth.emailInvalid';
}

/**
 * The shared password rule: an uppercase letter, a lowercase letter, a digit or one of !@#$%^&*()_+, and at
 * least 12 characters; the first failing message is returned.
 */
export function passwordRule(value: string): string | null {
  if (!/[A-Z]/.test(value)) return 'auth.passwordValidator.uppercase';
  if (!/[a-z]/.test(value)) return 'auth.passwordValidator.lowercase';
  if (!/[0-9!@#$%^&*()_+]/.test(value)) return 'auth.passwordValidator.digitOrSpecial';
  if (value.length < PASSWORD_MIN_LENGTH) return 'auth.passwordValidator.length';
  return null;
}

/**
 * The shared phone rule: optional; a leading + with 1-3 digits and an optional space, then at least 5
 * characters from digits, spaces, parentheses, dots and hyphens (e.g. +49 211 1234567).
 */
export function phoneRule(value: string | undefined | null): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  return /^\+\d{1,3} ?[\d\s().-]{5,}$/.test(value.trim()) ? null : 'auth.phoneInvalid';
}

/** A 6-digit one-time code. */
export function otpRule(value: string): string | null {
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(value) ? null : 'auth.otpInvalid';
}

/** Trimmed, non-empty. */
export function requiredRule(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? null : 'validation.required';
}

/** Removes empty or blank values (recursively) before sending a profile update (accounts.md §5). */
export function withoutBlankValues<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      const inner = withoutBlankValues(v as Record<string, unknown>);
      if (Object.keys(inner).length > 0) out[k] = inner;
      continue;
    }
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out as Partial<T>;
}
