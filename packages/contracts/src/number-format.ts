/**
 * How result numbers read, the same on the results page (apps/web) and in the job's PDF report (apps/server
 * reports): one rule in one place, so that the same number reads the same in both. `locale` is a BCP 47 tag
 * ('en', 'de', 'en-GB', …).
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

