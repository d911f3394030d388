/**
 * How result numbers read, the same on the results page (apps/web) and in the job's PDF report (apps/server
 * reports): one rule in one place, so that the same number reads the same in both (the PDF printed the model's 4
 * decimals where the page showed 2). `locale` is a BCP 47 tag ('en', 'de', 'en-GB', …).
 */

/**
 * Decimals of a histogram's bin labels, from its narrowest bin: 0 for bins 1 wide or wider, 1 for 0.1 to 1, 2 for
 * 0.01 to 0.1, … (at most 6). Every label of one histogram has as many, so its edges read as a regular scale
 * ("0.5–1.0", "1.0–1.5", not "0.5–1", "1–1.5"); bins of another width than a 1-2-5 step still get edges that differ.
 * `xs`: the bins' x, a range [from, to] each or a value each (then the gap between neighbours is the width).
 */
export function binDecimals(xs: ReadonlyArray<number | readonly [number, number]>): number {
  let width = Infinity;
  xs.forEach((x, i) => {
    const prev = xs[i - 1];
    const d = typeof x !== 'number' ? x[1] - x[0] : typeof prev === 'number' ? Math.abs(x - prev) : Infinity;
    if (d > 0 && d < width) width = d;
  });
  if (!Number.isFinite(width)) return 1;
  return Math.min(6, Math.max(0, -Math.floor(Math.log10(width) + 1e-9)));
}

/** A number with exactly `decimals` decimals in the locale's style. */
export function formatFixed(value: number, decimals: number, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** A histogram bin's label: "from–to" for a range, else the value, each with `decimals` decimals (binDecimals). */
export function formatBinLabel(x: number | readonly [number, number], decimals: number, locale = 'en'): string {
  return typeof x === 'number' ? formatFixed(x, decimals, locale) : `${formatFixed(x[0], decimals, locale)}–${formatFixed(x[1], decimals, locale)}`;
}

/** The labels of a histogram's bins, all with the decimals their width asks for (binDecimals). */
export function histogramBinLabels(xs: ReadonlyArray<number | readonly [number, number]>, locale = 'en'): string[] {
  const decimals = binDecimals(xs);
  return xs.map((x) => formatBinLabel(x, decimals, locale));
}

/** Rounds to `decimals` places, half away from zero; non-finite values pass through unchanged. */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * f) / f;
}

/** Table value: numbers with exactly 2 decimals (in the locale's style), strings as they are, '–' for none. */
export function formatTableValue(value: unknown, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return '–';
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : null;
  if (n === null) return String(value);
  if (!Number.isFinite(n)) return String(n);
  return formatFixed(roundTo(n, 2), 2, locale);
}

/** What a result table's number is (the `kind` of a data-table row; jobs/localise.ts adds it when a job is read). */
export type ValueKind = 'count' | 'g' | 'pixelSize' | 'number';

/**
 * A result table's number as a metallographer reads it (issue 14 item 5), on the results page and in the job PDF
 * alike: counts as integers (a Jeffries count of halves keeps its .5), G to 2 decimals, the pixel size to 4
 * significant digits, anything else to 2 decimals (user-app.md §9), whatever decimals the model stored; strings as
 * they are.
 */
export function formatResultValue(value: unknown, kind: ValueKind | undefined, locale = 'en'): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || !kind || kind === 'number' || kind === 'g') return formatTableValue(value, locale);
  if (kind === 'pixelSize') return new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format(value);
  const halves = Number.isInteger(value * 2) ? value : Math.round(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(halves);
}
