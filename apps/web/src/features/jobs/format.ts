/** Number and colour rules of user-app.md §9: axis values 1 decimal, tables 2, feedback-flag colour by score. */

import { roundTo } from '@lamella/contracts';

// the rules of result numbers are shared with the job PDF (packages/contracts number-format.ts)
export { formatResultValue, formatTableValue, roundTo, type ValueKind } from '@lamella/contracts';

/** Axis tick text: 1 decimal, trailing zeros dropped (12 → "12", 1.25 → "1.3"). */
export function formatAxis(value: unknown, locale = 'en'): string {
  if (typeof value !== 'number') return String(value ?? '');
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(roundTo(value, 1));
}

export type FlagColor = 'black' | 'red' | 'orange' | 'green';

/** Average of the flags' scores (0 when there are none). */
export function averageScore(flags: { score: number }[]): number {
  if (!flags.length) return 0;
  return flags.reduce((s, f) => s + (Number.isFinite(f.score) ? f.score : 0), 0) / flags.length;
}

/** Feedback flag colour from the average score: 0 black, up to 0.2 red, up to 0.8 orange, above 0.8 green. */
export function feedbackColor(average: number): FlagColor {
  if (!(average > 0)) return 'black';
  if (average <= 0.2) return 'red';
  if (average <= 0.8) return 'orange';
  return 'green';
}

/** Truncates to `max` characters plus an ellipsis (sandbox filenames: 70). */
export function truncate(text: string, max = 70): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

/** Durations as days, hours, minutes, seconds; short form like "1d 2h"; '<1s' below one second. */
export function formatDuration(ms: number): string {
  if (!(ms >= 1000)) return '<1s';
  let s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts = [d && `${d}d`, h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean) as string[];
  return parts.slice(0, 2).join(' ');
}
