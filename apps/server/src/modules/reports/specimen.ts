import type { Job } from '@lamella/contracts';
import type { Digits, SpecimenColumn, SpecimenSection, SpecimenStat } from './data.ts';
import { fieldStatistics } from './statistics.ts';
import { methodsOf, modelName, quantityName, unitOf, type ReportText } from './text.ts';

/**
 * A specimen from a project's images: every image is one field; per model, the field values (the newest
 * finished job of that model on the image) and the field statistics of each method (E112 G by planimetric and
 * intercept, E562 area fraction; layers: mean, min and max thickness across fields).
 */
interface ModelPlan {
  columns: Array<[key: string, digits: Digits]>;
  stats: Array<[key: string, digits: Digits, kind: 'ci' | 'range']>;
}
const PLANS: Record<string, ModelPlan> = {
  'grain-size': {
    columns: [
      ['astmGPlanimetric', 2],
      ['astmGIntercept', 2],
      ['grainCount', 1],
      ['meanInterceptUm', 3],
      ['pixelSizeUm', 'sig4'],
    ],
    stats: [
      ['astmGPlanimetric', 2, 'ci'],
      ['astmGIntercept', 2, 'ci'],
    ],
  },
  'layer-thickness': {
    columns: [
      ['meanThicknessUm', 2],
      ['minThicknessUm', 2],
      ['maxThicknessUm', 2],
      ['pixelSizeUm', 'sig4'],
    ],
    stats: [['meanThicknessUm', 2, 'range']],
  },
  porosity: {
    columns: [
      ['areaFractionPercent', 2],
      ['poreCount', 'int'],
      ['pixelSizeUm', 'sig4'],
    ],
    stats: [['areaFractionPercent', 2, 'ci']],
  },
  cracks: {
    columns: [
      ['crackCount', 'int'],
      ['totalLengthUm', 2],
      ['pixelSizeUm', 'sig4'],
    ],
    stats: [],
  },
};
const ORDER = ['grain-size', 'porosity', 'layer-thickness', 'cracks'];

const numeric = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Builds the sections from the fields (images in report order) and the jobs of each field. */
export function specimenSections(tx: ReportText, fields: Array<{ filename: string; jobs: Job[] }>): SpecimenSection[] {
  const sections: SpecimenSection[] = [];
  for (const model of ORDER) {
    const plan = PLANS[model];
    const rows: SpecimenSection['rows'] = [];
    let label = '';
    fields.forEach((f, i) => {
      const job = f.jobs
        .filter((j) => j.model.name === model && j.result && (j.status === 'FINISHED' || j.status === 'CACHED'))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
      if (!job?.result) return;
      label ||= modelName(tx, job.model);
      const m = job.result.measurements;
      rows.push({
        field: i + 1,
        filename: f.filename,
        jobId: job.id,
        modelVersion: job.modelVersion,
        values: Object.fromEntries(plan.columns.map(([k]) => [k, numeric(m[k])])),
      });
    });
    if (!rows.length) continue;
    const columns: SpecimenColumn[] = plan.columns.map(([key, digits]) => ({ key, digits, label: quantityName(tx, key), unit: unitOf(key) }));
    const stats: SpecimenStat[] = plan.stats.map(([key, digits, kind]) => {
      const stats = fieldStatistics(rows.map((r) => r.values[key]));
      if (kind === 'range') {
        // the thinnest and thickest place of any field, not the extremes of the field means
        stats.min = fieldStatistics(rows.map((r) => r.values.minThicknessUm)).min ?? stats.min;
        stats.max = fieldStatistics(rows.map((r) => r.values.maxThicknessUm)).max ?? stats.max;
      }
      return { key, digits, kind, label: quantityName(tx, key), unit: unitOf(key), stats };
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
