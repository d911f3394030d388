import ExcelJS from 'exceljs';
import { translate, type Language } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { CSV_BOM, csvLine, type CsvOptions } from '../../platform/http/csv.ts';
import { localiseModelName } from './localise.ts';
import * as repo from './repo.ts';

/**
 * The export of selected jobs (issue 14 item 3): one row per job (job, image, model, version, status, date),
 * then every measurement found in the jobs, each under a readable header in the reader's language with its unit
 * (resultText.column.<measurement>; an unknown measurement keeps its code name). Numbers are rounded as the
 * spec's tables are: 2 decimals, counts as integers (a Jeffries count of halves keeps its .5), the pixel size to 4
 * significant digits. CSV: platform/http/csv.ts (formula-safe text, the user's decimal separator, `;` between
 * fields with the comma). XLSX: the same table with numbers as numbers and the date as a date.
 */
export interface ExportUser {
  id: string;
  csvDecimalSeparator: string | null;
}

type Cell = string | number | Date | null;
export interface ExportTable {
  headers: string[];
  rows: Cell[][];
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
const PERCENT_OF_ONE = new Set(['crackAreaFraction']);

/** A count as an integer; a count of halves (Jeffries: border grains count ½) to 1 decimal. */
export const roundCount = (v: number) => (Number.isInteger(v * 2) ? v : Math.round(v));
/** `v` to `n` significant digits. */
export const significant = (v: number, n: number) => (v === 0 ? 0 : Number(v.toPrecision(n)));
export const round2 = (v: number) => Math.round((v + Number.EPSILON) * 100) / 100;

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
export async function exportTable(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<ExportTable> {
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
        localiseModelName({ name: r.modelName, displayName: r.model }, lng),
        r.job.modelVersion,
        translate(lng, `jobs.status.${r.job.status}`),
        r.job.createdAt,
        ...keys.map((k) => (Object.hasOwn(m, k) ? exportValue(k, m[k], lng) : null)),
      ];
    }),
  };
}

/** The user's CSV style: comma decimals (and `;` between fields) unless they chose the dot. */
export const csvOptionsOf = (user: ExportUser): CsvOptions =>
  user.csvDecimalSeparator !== 'dot' ? { separator: ';', decimal: ',' } : { separator: ',', decimal: '.' };

export function tableToCsv(table: ExportTable, options: CsvOptions): string {
  return CSV_BOM + csvLine(table.headers, options) + table.rows.map((r) => csvLine(r, options)).join('');
}

export async function tableToXlsx(table: ExportTable, sheetName: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'Lamella';
  const sheet = book.addWorksheet(sheetName.slice(0, 31));
  sheet.addRow(table.headers).font = { bold: true };
  for (const r of table.rows) sheet.addRow(r);
  sheet.columns.forEach((c, i) => {
    c.width = Math.min(40, Math.max(10, table.headers[i].length + 2));
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function jobsCsv(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<string> {
  return tableToCsv(await exportTable(db, user, ids, lng), csvOptionsOf(user));
}

export async function jobsXlsx(db: Db, user: ExportUser, ids: string[], lng: Language): Promise<Buffer> {
  return tableToXlsx(await exportTable(db, user, ids, lng), translate(lng, 'resultText.sheet'));
}
