/** Formatting of the back-office (back-office.md §9: dates DD/MM/YYYY HH:mm:ss, filters YYYY-MM-DD). */
import { isApiError } from '../../../api/client';

const p = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Seconds with one decimal from milliseconds; '—' when unknown. */
export function seconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return (Math.round(ms / 100) / 10).toFixed(1);
}

/** The server's message, else the error's text, else the fallback (back-office.md §8). */
export function errorText(error: unknown, fallback: string): string {
  if (isApiError(error)) {
    const details = error.details.map((d) => d.message).filter(Boolean);
    if (details.length) return details.join(' ');
    if (error.message && !/^HTTP_/.test(error.message)) return error.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function bytes(n: number | null | undefined): string {
  if (!n && n !== 0) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
