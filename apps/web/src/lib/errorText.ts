/**
 * The one error-to-text helper. The server answers `{statusCode, code, message, details?}` with `message`
 * already in the caller's language and each detail naming its field and translation `key`. The UI shows:
 * the field messages when there are any, else the server's message, else a translated fallback. A network
 * failure (no answer) reads as "the server cannot be reached".
 */
import type { TFunction } from 'i18next';
import { isApiError, type ApiErrorDetail } from '../api/client';

/**
 * Text of one field detail: the server's message (already in the caller's language, with the field's label in
 * it); its translation key only when the message is missing.
 */
export function detailText(t: TFunction, detail: ApiErrorDetail): string {
  if (detail.message) return detail.message;
  return detail.key ? t(detail.key, { defaultValue: '' }) : '';
}

/** Field → message, for putting server errors under form inputs (`/address/phone` → `address.phone`). */
export function fieldErrors(t: TFunction, error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(error)) return out;
  for (const d of error.details) {
    const path = d.field.replace(/^\//, '').replace(/\//g, '.');
    if (path && !(path in out)) out[path] = detailText(t, d);
  }
  return out;
}

/** One line for a toast or an alert. `fallbackKey` is used when the error carries no message of its own. */
export function errorText(t: TFunction, error: unknown, fallbackKey = 'shared.error.generic'): string {
  if (isApiError(error)) {
    if (error.statusCode === 0) return t('common.serverUnavailable');
    const details = error.details.map((d) => detailText(t, d)).filter(Boolean);
    if (details.length) return details.join(' ');
    if (error.message && !/^HTTP_\d+$/.test(error.code) && error.message !== error.code) return error.message;
    return t(fallbackKey);
  }
  return t(fallbackKey);
}
