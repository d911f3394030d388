/**
 * Field statistics of a specimen (ASTM E112-13 §16 "Statistical analysis", E562-19 §11): the fields (images) of a
 * specimen are measured one by one and the specimen's value is their mean with a 95 % confidence interval from
 * Student's t (E112 and E562 use t with n − 1 degrees of freedom, not the normal 1.96, because few fields are
 * measured), and the % relative accuracy %RA = 100 · CI / mean. E112 asks for more fields when %RA > 10 %.
 * Pure functions: no I/O, tested against hand computations (apps/server/test/report-statistics.test.ts).
 */

/** t(0.975, df) for a two-sided 95 % interval (E112 Table 7, E562 Table 1); df 1–30, then 40, 60, 120, ∞. */
const T_975: ReadonlyArray<readonly [number, number]> = [
  [1, 12.706],
  [2, 4.303],
  [3, 3.182],
  [4, 2.776],
  [5, 2.571],
  [6, 2.447],
  [7, 2.365],
  [8, 2.306],
  [9, 2.262],
  [10, 2.228],
  [11, 2.201],
  [12, 2.179],
  [13, 2.16],
  [14, 2.145],
  [15, 2.131],
  [16, 2.12],
  [17, 2.11],
  [18, 2.101],
  [19, 2.093],
  [20, 2.086],
  [21, 2.08],
  [22, 2.074],
  [23, 2.069],
  [24, 2.064],
  [25, 2.06],
  [26, 2.056],
  [27, 2.052],
  [28, 2.048],
  [29, 2.045],
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
];

/** Student's t(0.975, df); between tabulated df the value of the next smaller df (the wider, safe interval). */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  let t = 1.96;
  for (let i = T_975.length - 1; i >= 0; i--) {
    if (df >= T_975[i][0]) {
      t = df > 120 ? 1.96 : T_975[i][1];
      break;
    }
  }
  return t;
}

/** %RA above which E112 §16.3 asks for more fields (and E562 §11.4 likewise). */
export const RA_LIMIT_PERCENT = 10;

export interface FieldStatistics {
  /** Number of fields with a value. */
  n: number;
  mean: number | null;
  /** Sample standard deviation s (n − 1 in the denominator); null below 2 fields. */
  sd: number | null;
  /** Half-width of the 95 % confidence interval, t(0.975, n − 1) · s / √n; null below 2 fields. */
  ci95: number | null;
  /** % relative accuracy, 100 · CI / mean; null when undefined (fewer than 2 fields, mean 0). */
  raPercent: number | null;
  min: number | null;
  max: number | null;
  /** %RA above 10 %: E112 asks for more fields. */
  raExceeded: boolean;
}

/** The statistics of the fields' values; values that are not finite numbers (no calibration…) are left out. */
export function fieldStatistics(values: ReadonlyArray<number | null | undefined>): FieldStatistics {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const n = xs.length;
  if (!n) return { n: 0, mean: null, sd: null, ci95: null, raPercent: null, min: null, max: null, raExceeded: false };
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  if (n < 2) return { n, mean, sd: null, ci95: null, raPercent: null, min, max, raExceeded: false };
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const ci95 = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  const raPercent = mean !== 0 ? Math.abs((100 * ci95) / mean) : null;
  return { n, mean, sd, ci95, raPercent, min, max, raExceeded: raPercent !== null && raPercent > RA_LIMIT_PERCENT };
}

/** Fewer fields than this: E112 §16 and E562 suggest measuring at least 5 fields (the report says so). */
export const MIN_FIELDS_SUGGESTED = 5;

/** E112 planimetric (Jeffries): G = 3.321928·log10(N_A) − 2.954, N_A in grains per mm². */
export const gFromNA = (nAPerMm2: number): number | null => (nAPerMm2 > 0 ? 3.321928 * Math.log10(nAPerMm2) - 2.954 : null);
/** E112 lineal intercept (Heyn): G = −6.643856·log10(L̄) − 3.288, L̄ in mm. */
export const gFromInterceptMm = (lMm: number): number | null => (lMm > 0 ? -6.643856 * Math.log10(lMm) - 3.288 : null);
/** The inverse of gFromNA: N_A (1/mm²) = 10^((G + 2.954) / 3.321928), for results that stored G only. */
export const nAFromG = (g: number): number => 10 ** ((g + 2.954) / 3.321928);
/** The inverse of gFromInterceptMm: L̄ (mm) = 10^(−(G + 3.288) / 6.643856), for results that stored G only. */
export const interceptMmFromG = (g: number): number => 10 ** (-(g + 3.288) / 6.643856);

/** E112 §16: the statistics of the fields' N_A or L̄ values, and G of their mean (G itself is never averaged). */
export interface GrainSizeStatistics extends FieldStatistics {
  /** G of the mean N_A (planimetric) or of the mean L̄ (intercept); null without fields. */
  gOfMean: number | null;
  /** Fewer than MIN_FIELDS_SUGGESTED fields. */
  fewFields: boolean;
}

/**
 * ASTM E112-13 §16 for one method: `values` are the fields' N_A (1/mm², planimetric) or L̄ (µm, intercept). The
 * mean, s, 95 % CI and %RA are computed on these values (not on the fields' G), and only the mean is converted to G.
 */
export function e112Statistics(method: 'planimetric' | 'intercept', values: ReadonlyArray<number | null | undefined>): GrainSizeStatistics {
  const s = fieldStatistics(values);
  const gOfMean = s.mean === null ? null : method === 'planimetric' ? gFromNA(s.mean) : gFromInterceptMm(s.mean / 1000);
  return { ...s, gOfMean, fewFields: s.n < MIN_FIELDS_SUGGESTED };
}
