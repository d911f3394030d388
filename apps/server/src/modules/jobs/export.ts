import { translate, type Language } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { csvOptionsOf, round2, roundCount, significant, tableToCsv, tableToXlsx, type Cell, type Table } from '../../platform/http/spreadsheet.ts';
import { localiseModelName } from './localise.ts';
import * as repo from './repo.ts';

/**
 * The export of selected jobs (issue 14 item 3): one row per job (job, image, model, version, status, date),
 * then every measurement found in the jobs, each under a readable header in the reader's language with its unit
 * (resultText.column.<measurement>; an unknown measurement keeps its code name). Numbers are rounded as the
 * spec's tables are: 2 decimals, counts as integers (a Jeffries count of halves keeps its .5), the pixel size to 4
 * significant digits. Both formats are written by platform/http/spreadsheet.ts (shared with the back-office
 * reports): CSV with formula-safe text, the user's decimal separator and `;` between fields with the comma; XLSX
 * with numbers as numbers and the date as a date.
 */
export interface ExportUser {
  id: string;
  csvDecimalSeparator: string | null;
}

/** Measurements whose value is a count. */
const COUNTS = new Set([
  'grainCount',
  'grainsInside',
  'grainsOnBorder',
  'interceptCount',
  'columnsMeasured',
  'crackCount',
  'poreCount',
  'scaleBarLengthPx',
  'analysedWidthPx',
  'analysedHeightPx',
]);
/** Measurements stored as a fraction of 1 but headed in %. */
const PERCENT_OF_ONE = new Set(['crackAreaFraction', 'lamellarShare']);

/** One measurement value as exported. */
export function exportValue(key: string, value: unknown, lng: Language): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (COUNTS.has(key)) return roundCount(value);
    if (key === 'pixelSizeUm') return significant(value, 4);
    return round2(PERCENT_OF_ONE.has(key) ? value * 100 : value);
  }
  if (key === 'calibrationSource' && typeof value === 'string') {
    const k = { user: 'User', metadata: 'Metadata', 'scale-bar': 'ScaleBar', settings: 'Settings', none: 'None' }[value];
    return k ? translate(lng, `resultText.tip.calibration${k}`) : value;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The header of a column in `lng` (the measurement's code name when it has no text). */
export function columnHeader(key: string, lng: Language): string {
  const k = `resultText.column.${key}`;
  const text = translate(lng, k);
  return text === k ? key : text;
}

const FIXED = ['job', 'image', 'model', 'modelVersion', 'status', 'createdAt'] as const;

/** The export's table, in `lng`. */
export async function exportTable(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<Table> {
  const rows = await repo.exportRows(db, user.id, ids);
  if (rows.length !== new Set(ids).size) throw notFound('job');
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.measurements ?? {})))].sort();
  return {
    headers: [...FIXED.map((k) => columnHeader(k, lng)), ...keys.map((k) => columnHeader(k, lng))],
    rows: rows.map((r) => {
      const m = r.measurements ?? {};
      return [
        r.job.id,
        r.image,
        localiseModelName({ name: r.modelName, displayName: r.model, displayNameDe: r.modelDe }, lng),
        r.job.modelVersion,
        translate(lng, `jobs.status.${r.job.status}`),
        r.job.createdAt,
        ...keys.map((k) => (Object.hasOwn(m, k) ? exportValue(k, m[k], lng) : null)),
      ];
    }),
  };
}

export async function jobsCsv(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<string> {
  return tableToCsv(await exportTable(db, user, ids, lng), csvOptionsOf(user.csvDecimalSeparator));
}

export async function jobsXlsx(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<Buffer> {
  return tableToXlsx(await exportTable(db, user, ids, lng), translate(lng, 'resultText.sheet'));
}
