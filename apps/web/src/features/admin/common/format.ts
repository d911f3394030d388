/** Number formatting of the back-office (dates and error text: lib/format.ts, lib/errorText.ts). */

/** Seconds with one decimal from milliseconds; '—' when unknown. */
export function seconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return (Math.round(ms / 100) / 10).toFixed(1);
}

export function bytes(n: number | null | undefined): string {
  if (!n && n !== 0) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
