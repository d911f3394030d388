/**
 * The one date formatter of the web app. User-app screens show dates in the UI language's style (Intl);
 * back-office screens use the fixed DD/MM/YYYY HH:mm:ss of back-office.md §9. Every function answers '—' for
 * a missing or unparsable value. `useFormat()` binds them to the current UI language.
 */
import { useTranslation } from 'react-i18next';

export const NO_VALUE = '—';

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A calendar date in the language's style ("23 Nov 2026", "23.11.2026"). */
export function formatDate(value: DateInput, lng: string): string {
  const d = toDate(value);
  return d ? new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(d) : NO_VALUE;
}

/** Date and time in the language's style ("23 Nov 2026, 14:05"). */
export function formatDateTime(value: DateInput, lng: string): string {
  const d = toDate(value);
  return d ? new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(d) : NO_VALUE;
}

/** Date and time with seconds in the language's style, for tooltips. */
export function formatTimestamp(value: DateInput, lng: string): string {
  const d = toDate(value);
  return d ? new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'medium' }).format(d) : NO_VALUE;
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** Back-office date display (back-office.md §9): DD/MM/YYYY HH:mm:ss in local time, whatever the language. */
export function formatAdminDateTime(value: DateInput): string {
  const d = toDate(value);
  if (!d) return NO_VALUE;
  return `${p2(d.getDate())}/${p2(d.getMonth() + 1)}/${d.getFullYear()} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
}

/** Back-office filter date (back-office.md §9): YYYY-MM-DD in local time. */
export function formatFilterDate(value: DateInput): string {
  const d = toDate(value);
  return d ? `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}` : NO_VALUE;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", "yesterday", "in 2 days"… in the language (Intl.RelativeTimeFormat). */
export function formatRelative(value: DateInput, lng: string, now: number = Date.now()): string {
  const d = toDate(value);
  if (!d) return NO_VALUE;
  const seconds = Math.round((d.getTime() - now) / 1000);
  const fmt = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return fmt.format(Math.round(seconds / size), unit);
  }
  return fmt.format(0, 'second');
}

/** The formatters bound to the current UI language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return {
    lng,
    date: (value: DateInput) => formatDate(value, lng),
    dateTime: (value: DateInput) => formatDateTime(value, lng),
    timestamp: (value: DateInput) => formatTimestamp(value, lng),
    relative: (value: DateInput, now?: number) => formatRelative(value, lng, now),
    adminDateTime: formatAdminDateTime,
  };
}
