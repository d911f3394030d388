import type { Job } from '@lamella/contracts';
import type { Digits, SpecimenColumn, SpecimenRow, SpecimenSection, SpecimenStat } from './data.ts';
import { e112Statistics, fieldStatistics, interceptMmFromG, MIN_FIELDS_SUGGESTED, nAFromG } from './statistics.ts';
import { calibrationSource, methodsOf, modelName, quantityName, unitOf, type ReportText } from './text.ts';

/**
 * A specimen from a project's fields (its images): per model, the job chosen for each field (accepted by a member
 * or, by default, the newest finished job of that image started in the project) and the field statistics of each
 * method. E112 §16: the statistics are computed on the fields' N_A (planimetric) and L̄ (intercept), and only their
 * means are converted to G; E562: on the fields' area fractions; layers: mean, min and max thickness across fields.
 */
type StatPlan = { key: string; digits: Digits; kind: 'ci' | 'range'; basis: string; e112?: 'planimetric' | 'intercept'; gKey?: string };
interface ModelPlan {
  columns: Array<[key: string, digits: Digits]>;
  stats: StatPlan[];
}
const PLANS: Record<string, ModelPlan> = {
  'grain-size': {
    columns: [
      ['grainsPerMm2', 'sig4'],
      ['meanInterceptUm', 'sig4'],
      ['astmGPlanimetric', 2],
      ['astmGIntercept', 2],
      ['grainCount', 1],
    ],
    stats: [
      {
        key: 'grainsPerMm2',
        digits: 'sig4',
        kind: 'ci',
        basis: 'reports.specimen.basis.e112Planimetric',
        e112: 'planimetric',
        gKey: 'astmGPlanimetric',
      },
      {
        key: 'meanInterceptUm',
        digits: 'sig4',
        kind: 'ci',
        basis: 'reports.specimen.basis.e112Intercept',
        e112: 'intercept',
        gKey: 'astmGIntercept',
      },
    ],
  },
  'layer-thickness': {
    columns: [
      ['meanThicknessUm', 2],
      ['minThicknessUm', 2],
      ['maxThicknessUm', 2],
    ],
    stats: [{ key: 'meanThicknessUm', digits: 2, kind: 'range', basis: 'reports.specimen.basis.layer' }],
  },
  porosity: {
    columns: [
      ['areaFractionPercent', 2],
      ['poreCount', 'int'],
    ],
    stats: [{ key: 'areaFractionPercent', digits: 2, kind: 'ci', basis: 'reports.specimen.basis.e562' }],
  },
  cracks: {
    columns: [
      ['crackCount', 'int'],
      ['totalLengthUm', 2],
    ],
    stats: [],
  },
};
const ORDER = ['grain-size', 'porosity', 'layer-thickness', 'cracks'];

const numeric = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The field values of a job's measurements. E112 field values missing from an older result (it stored G only)
 * are derived from its G by E112's formulas, and named in `derived`.
 */
export function fieldValues(model: string, m: Record<string, unknown>): { values: Record<string, number | null>; derived: string[] } {
  const plan = PLANS[model];
  const values: Record<string, number | null> = Object.fromEntries((plan?.columns ?? []).map(([k]) => [k, numeric(m[k])]));
  const derived: string[] = [];
  if (model === 'grain-size') {
    const gP = numeric(m.astmGPlanimetric);
    const gI = numeric(m.astmGIntercept);
    if (values.grainsPerMm2 === null && gP !== null) {
      values.grainsPerMm2 = nAFromG(gP);
      derived.push('grainsPerMm2');
    }
    if (values.meanInterceptUm === null && gI !== null) {
      values.meanInterceptUm = interceptMmFromG(gI) * 1000;
      derived.push('meanInterceptUm');
    }
  }
  return { values, derived };
}

export interface SpecimenField {
  filename: string;
  /** The job that represents the field for each model (at most one per model), and whether it was accepted. */
  jobs: Array<{ job: Job; accepted: boolean }>;
}

/** The job's calibration as text: pixel size and its source. */
function calibrationText(tx: ReportText, m: Record<string, unknown>): string {
  const px = numeric(m.pixelSizeUm);
  return px === null ? tx.t('reports.job.notCalibrated') : `${tx.sig(px, 4)} µm/px (${calibrationSource(tx, m.calibrationSource)})`;
}

/** Builds the sections from the fields (images in report order) and the job chosen for each field and model. */
export function specimenSections(tx: ReportText, fields: SpecimenField[]): SpecimenSection[] {
  const sections: SpecimenSection[] = [];
  for (const model of ORDER) {
    const plan = PLANS[model];
    const rows: SpecimenRow[] = [];
    let label = '';
    fields.forEach((f, i) => {
      const chosen = f.jobs.find((c) => c.job.model.name === model && c.job.result);
      if (!chosen?.job.result) return;
      const job = chosen.job;
      label ||= modelName(tx, job.model);
      const m = chosen.job.result.measurements;
      rows.push({
        field: i + 1,
        filename: f.filename,
        jobId: job.id,
        modelVersion: job.modelVersion,
        calibration: calibrationText(tx, m),
        pixelSizeUm: numeric(m.pixelSizeUm),
        mask: job.withMasks,
        accepted: chosen.accepted,
        ...fieldValues(model, m),
      });
    });
    if (!rows.length) continue;
    const columns: SpecimenColumn[] = plan.columns.map(([key, digits]) => ({ key, digits, label: quantityName(tx, key), unit: unitOf(key) }));
    const stats: SpecimenStat[] = plan.stats.map((p) => {
      const values = rows.map((r) => r.values[p.key]);
      const stats = fieldStatistics(values);
      if (p.kind === 'range') {
        // the thinnest and thickest place of any field, not the extremes of the field means
        stats.min = fieldStatistics(rows.map((r) => r.values.minThicknessUm)).min ?? stats.min;
        stats.max = fieldStatistics(rows.map((r) => r.values.maxThicknessUm)).max ?? stats.max;
      }
      const stat: SpecimenStat = {
        key: p.key,
        digits: p.digits,
        kind: p.kind,
        label: quantityName(tx, p.key),
        unit: unitOf(p.key),
        stats,
        basis: tx.t(p.basis),
        fewFields: stats.n < MIN_FIELDS_SUGGESTED,
      };
      if (p.e112 && p.gKey) stat.g = { label: quantityName(tx, p.gKey), stats: e112Statistics(p.e112, values) };
      return stat;
    });
    sections.push({ model, modelLabel: label, methods: methodsOf(tx, model), columns, rows, stats });
  }
  return sections;
}

/** A value as text by its digits rule. */
export function formatValue(tx: ReportText, v: number | null | undefined, digits: Digits): string {
  if (digits === 'int') return tx.int(v);
  if (digits === 'sig4') return tx.sig(v, 4);
  return tx.num(v, digits);
}
