import type { JobReportData } from './data.ts';
import { fieldValues } from './specimen.ts';
import { calibrationSource, methodsOf, modelName, type ReportText } from './text.ts';
import type { Job, ValueKind } from '@lamella/contracts';

/**
 * The facts that make a job's result reproducible, as label/value pairs for both writers: `text` for the PDF,
 * `value` (numbers as numbers) for the XLSX summary sheet.
 */
export interface SummaryRow {
  label: string;
  text: string;
  value: string | number;
}

export function jobSummary(d: JobReportData): SummaryRow[] {
  const { tx, job } = d;
  const m = job.result?.measurements ?? {};
  const px = typeof m.pixelSizeUm === 'number' && Number.isFinite(m.pixelSizeUm) ? m.pixelSizeUm : null;
  const row = (label: string, text: string, value: string | number = text): SummaryRow => ({ label, text, value });
  const template = job.customization?.template;
  const settingsName = template
    ? tx.lng === 'de'
      ? template.nameDe
      : template.nameEn
    : job.customization
      ? tx.t('reports.job.customSettings')
      : tx.t('reports.job.defaultSettings');
  const c = job.crop;
  const note = statisticsNote(tx, job);
  const rows = [
    row(tx.t('reports.job.jobId'), job.id),
    row(tx.t('reports.job.image'), job.image.orginalFilename),
    row(tx.t('reports.job.imageSize'), tx.t('reports.job.pixels', { width: job.image.width, height: job.image.height })),
    row(tx.t('reports.job.model'), modelName(tx, job.model)),
    row(tx.t('reports.job.version'), job.modelVersion),
    row(tx.t('reports.job.method'), methodsOf(tx, job.model.name).join('\n') || '–'),
    row(tx.t('reports.job.calibration'), px === null ? tx.t('reports.job.notCalibrated') : `${tx.sig(px, 4)} µm/px`, px ?? ''),
    row(tx.t('reports.job.calibrationSource'), calibrationSource(tx, m.calibrationSource)),
    row(tx.t('reports.job.settings'), settingsName),
    row(
      tx.t('reports.job.crop'),
      c ? tx.t('reports.job.cropBox', { x: c.x, y: c.y, width: c.width, height: c.height }) : tx.t('reports.job.wholeImage'),
    ),
    row(tx.t('reports.job.masks'), job.withMasks ? tx.t('reports.job.userMask') : tx.t('reports.job.modelSegmentation')),
    ...(note ? [row(tx.t('reports.job.statistics'), note)] : []),
    row(tx.t('reports.job.analysedAt'), job.finishedAt ? tx.date(job.finishedAt) : '–'),
    row(tx.t('reports.job.generatedAt'), tx.date(d.generatedAt)),
  ];
  return rows;
}

/**
 * Which quantity field statistics are computed on (E112 §16: N_A and L̄, not G; E562: the area fraction), with this
 * job's values of it; null for models without field statistics.
 */
export function statisticsNote(tx: ReportText, job: Pick<Job, 'model' | 'result'>): string | null {
  const m = job.result?.measurements;
  if (!m) return null;
  if (job.model.name === 'grain-size') {
    const { values } = fieldValues('grain-size', m);
    return tx.t('reports.job.statisticsNote', { nA: tx.sig(values.grainsPerMm2, 4), l: tx.sig(values.meanInterceptUm, 4) });
  }
  if (job.model.name === 'porosity') return tx.t('reports.job.statisticsNoteE562', { aa: tx.num(m.areaFractionPercent, 2) });
  return null;
}

/** The key results of the job (G values, thickness, area fraction…) from its measurements, for the summary, each with the kind of its number (formatResultValue). */
export const KEY_RESULTS: Record<string, Array<[key: string, kind: ValueKind]>> = {
  'grain-size': [
    ['astmGPlanimetric', 'g'],
    ['astmGIntercept', 'g'],
    ['grainsPerMm2', 'number'],
    ['meanInterceptUm', 'number'],
  ],
  'layer-thickness': [['meanThicknessUm', 'number']],
  porosity: [['areaFractionPercent', 'number']],
  cracks: [['totalLengthUm', 'number']],
};

/** The settings the job ran with as `group.name` → value rows (nested groups flattened). */
export function flattenSettings(config: Record<string, unknown>, prefix = ''): Array<[string, string | number]> {
  const out: Array<[string, string | number]> = [];
  for (const [k, v] of Object.entries(config)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...flattenSettings(v as Record<string, unknown>, key));
    else out.push([key, typeof v === 'number' ? v : typeof v === 'string' ? v : JSON.stringify(v)]);
  }
  return out;
}
