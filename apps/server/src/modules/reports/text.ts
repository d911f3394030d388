import { translate, type Language } from '@lamella/i18n';

/**
 * The words and numbers of a report in the reader's language: every text through the `reports` namespace
 * (packages/i18n/locales/{en,de}/reports.json), numbers with the language's decimal separator. Keys are written
 * out whole here (no keys built at run time), so the i18n completeness test sees each one used.
 */
export interface ReportText {
  lng: Language;
  t(key: string, vars?: Record<string, string | number>): string;
  /** A number with exactly `digits` decimals ("–" when absent). */
  num(v: unknown, digits?: number): string;
  /** A number with `n` significant digits (the pixel size: 4). */
  sig(v: unknown, n?: number): string;
  /** An integer (counts). */
  int(v: unknown): string;
  /** A date and time in the language's format, UTC. */
  date(iso: string | Date): string;
}

const locale = (lng: Language) => (lng === 'de' ? 'de-DE' : 'en-GB');
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function reportText(lng: Language): ReportText {
  const loc = locale(lng);
  return {
    lng,
    t: (key, vars) => translate(lng, key, vars),
    num: (v, digits = 2) => (isNum(v) ? new Intl.NumberFormat(loc, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v) : '–'),
    sig: (v, n = 4) =>
      isNum(v) ? new Intl.NumberFormat(loc, { minimumSignificantDigits: n, maximumSignificantDigits: n, useGrouping: false }).format(v) : '–',
    int: (v) => (isNum(v) ? new Intl.NumberFormat(loc, { maximumFractionDigits: 0 }).format(Math.round(v)) : '–'),
    date: (d) =>
      new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(typeof d === 'string' ? new Date(d) : d) +
      ' UTC',
  };
}

/** The model's name in the reader's language: the German name staff set, a built-in model's translation, else the display name. */
const MODEL_NAMES: Record<string, string> = {
  'grain-size': 'reports.models.grainSize',
  'layer-thickness': 'reports.models.layerThickness',
  cracks: 'reports.models.cracks',
  porosity: 'reports.models.porosity',
  'scale-bar': 'reports.models.scaleBar',
};
export function modelName(tx: ReportText, model: { name: string; displayName: string; displayNameDe?: string | null }): string {
  if (tx.lng === 'de' && model.displayNameDe) return model.displayNameDe;
  const key = MODEL_NAMES[model.name];
  return key ? tx.t(key) : model.displayName;
}

/** The method and standard of each model's result, e.g. "ASTM E112-13, planimetric (Jeffries)". */
const METHODS: Record<string, string[]> = {
  'grain-size': ['reports.methods.e112Planimetric', 'reports.methods.e112Intercept'],
  'layer-thickness': ['reports.methods.layer'],
  cracks: ['reports.methods.cracks'],
  porosity: ['reports.methods.e562'],
  'scale-bar': ['reports.methods.scaleBar'],
};
export function methodsOf(tx: ReportText, modelName: string): string[] {
  return (METHODS[modelName] ?? []).map((k) => tx.t(k));
}

/** Where the pixel size came from (packages/analysis calibrate(): user, metadata, scale bar, settings, none). */
const CALIBRATION_SOURCES: Record<string, string> = {
  user: 'reports.calibrationSources.user',
  metadata: 'reports.calibrationSources.metadata',
  'scale-bar': 'reports.calibrationSources.scaleBar',
  settings: 'reports.calibrationSources.settings',
  none: 'reports.calibrationSources.none',
};
export function calibrationSource(tx: ReportText, source: unknown): string {
  const key = typeof source === 'string' ? CALIBRATION_SOURCES[source] : undefined;
  return key ? tx.t(key) : '–';
}

/** Readable names of the measurements the models write (packages/analysis/src/models), with their units. */
const QUANTITIES: Record<string, string> = {
  astmGPlanimetric: 'reports.quantities.astmGPlanimetric',
  astmGIntercept: 'reports.quantities.astmGIntercept',
  grainCount: 'reports.quantities.grainCount',
  grainsInside: 'reports.quantities.grainsInside',
  grainsOnBorder: 'reports.quantities.grainsOnBorder',
  grainsPerMm2: 'reports.quantities.grainsPerMm2',
  meanGrainAreaUm2: 'reports.quantities.meanGrainAreaUm2',
  meanInterceptUm: 'reports.quantities.meanInterceptUm',
  interceptCount: 'reports.quantities.interceptCount',
  meanThicknessUm: 'reports.quantities.meanThicknessUm',
  minThicknessUm: 'reports.quantities.minThicknessUm',
  maxThicknessUm: 'reports.quantities.maxThicknessUm',
  stdThicknessUm: 'reports.quantities.stdThicknessUm',
  areaFractionPercent: 'reports.quantities.areaFractionPercent',
  poreCount: 'reports.quantities.poreCount',
  crackCount: 'reports.quantities.crackCount',
  totalLengthUm: 'reports.quantities.totalLengthUm',
  pixelSizeUm: 'reports.quantities.pixelSizeUm',
};
export function quantityName(tx: ReportText, key: string): string {
  const k = QUANTITIES[key];
  return k ? tx.t(k) : key;
}

/** The unit of a measurement from its key's suffix (…Um, …Um2, …PerMm2, …Percent, …Deg). */
export function unitOf(key: string): string {
  if (/PerMm2$/.test(key)) return key.startsWith('crackDensity') ? 'mm/mm²' : '1/mm²';
  if (/Um2$/.test(key)) return 'µm²';
  if (/Um$/.test(key)) return key === 'pixelSizeUm' ? 'µm/px' : 'µm';
  if (/Percent$/.test(key)) return '%';
  if (/Deg$/.test(key)) return '°';
  if (/Px$/.test(key)) return 'px';
  return '';
}

/** A file name without characters that break a Content-Disposition header or a file system. */
export function safeFilename(base: string, ext: string): string {
  const clean = base
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${clean || 'report'}.${ext}`;
}
