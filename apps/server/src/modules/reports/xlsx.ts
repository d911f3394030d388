import { createRequire } from 'node:module';
import type ExcelJSModule from 'exceljs';

/** exceljs takes seconds to load: it is required at the first spreadsheet, not at the server's start (issue 30 item 5). */
let excel: typeof ExcelJSModule | undefined;
const ExcelJS = () => (excel ??= createRequire(import.meta.url)('exceljs') as typeof ExcelJSModule);
import type { SpecimenReportData, JobReportData } from './data.ts';
import { flattenSettings, jobSummary } from './job-summary.ts';
import { MIN_FIELDS_SUGGESTED } from './statistics.ts';
import { columnHeader, exportValue } from '../jobs/export.ts';

/**
 * The reports as Excel workbooks (exceljs): a first "Summary" sheet, then one sheet per table. Numbers are
 * written as numbers (never formatted text), units go into the column headers.
 */
const withUnit = (label: string, unit: string | null | undefined) => (unit ? `${label} (${unit})` : label);

/** Sheet names: at most 31 characters, none of : \ / ? * [ ], unique in the workbook. */
function sheetName(wb: ExcelJSModule.Workbook, wanted: string): string {
  const base =
    wanted
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 28) || 'Sheet';
  let name = base;
  for (let i = 2; wb.getWorksheet(name); i++) name = `${base.slice(0, 26)} ${i}`;
  return name;
}

function addSheet(wb: ExcelJSModule.Workbook, name: string, header: string[], rows: Array<Array<string | number | null>>, widths?: number[]) {
  const ws = wb.addWorksheet(sheetName(wb, name));
  ws.addRow(header).font = { bold: true };
  for (const r of rows) ws.addRow(r.map((v) => (v === null ? null : v)));
  ws.columns.forEach((c, i) => (c.width = widths?.[i] ?? Math.min(60, Math.max(12, header[i]?.length ?? 10) + 2)));
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  return ws;
}

async function toBuffer(wb: ExcelJSModule.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function jobXlsx(d: JobReportData): Promise<Buffer> {
  const { tx, job } = d;
  const wb = new (ExcelJS().Workbook)();
  wb.creator = d.letterhead.author;
  wb.created = d.generatedAt;
  addSheet(
    wb,
    tx.t('reports.xlsx.summary'),
    [tx.t('reports.job.property'), tx.t('reports.job.value')],
    jobSummary(d).map((r) => [r.label, r.value]),
    [26, 60],
  );
  const m = job.result?.measurements ?? {};
  // readable names with units (the export's column headers) and values rounded as in the tables (issue 24 item 6)
  addSheet(
    wb,
    tx.t('reports.xlsx.measurements'),
    [tx.t('reports.job.quantity'), tx.t('reports.job.value')],
    Object.entries(m).map(([k, v]) => {
      const c = exportValue(k, v, tx.lng);
      return [columnHeader(k, tx.lng), typeof c === 'number' || typeof c === 'string' ? c : c == null ? null : String(c)];
    }),
    [44, 18],
  );
  let tables = 0;
  let charts = 0;
  for (const item of job.result?.results ?? []) {
    if (item.type === 'data-table') {
      addSheet(
        wb,
        item.title || tx.t('reports.job.tableTitle', { n: ++tables }),
        [tx.t('reports.job.quantity'), tx.t('reports.job.value'), tx.t('reports.job.unit')],
        item.rows.map((r) => [r.label, r.value, r.unit ?? '']),
        [44, 16, 10],
      );
    } else if (item.type === 'histogram') {
      const x = item.xLabel || tx.t('reports.xlsx.bin');
      addSheet(
        wb,
        item.label || tx.t('reports.job.chartTitle', { n: ++charts }),
        [withUnit(`${x} ${tx.t('reports.xlsx.from')}`, item.unit), withUnit(`${x} ${tx.t('reports.xlsx.to')}`, item.unit), item.yLabel ?? ''],
        item.data.map((p) => (Array.isArray(p.x) ? [p.x[0], p.x[1], p.y] : [p.x, p.x, p.y])),
      );
    } else if (item.type === 'bar-chart') {
      const xKey = Object.keys(item.data[0] ?? {}).find((k) => !item.keys.includes(k)) ?? '';
      const yLabels = Array.isArray(item.yLabels) ? item.yLabels : item.yLabels ? [item.yLabels] : item.keys;
      addSheet(
        wb,
        item.title || tx.t('reports.job.chartTitle', { n: ++charts }),
        [item.xLabel ?? xKey, ...item.keys.map((k, i) => yLabels[i] ?? k)],
        item.data.map((r) => [r[xKey] ?? null, ...item.keys.map((k) => r[k] ?? null)]),
      );
    }
  }
  const config = job.customization?.config;
  if (config && Object.keys(config).length)
    addSheet(wb, tx.t('reports.job.settingsUsed'), [tx.t('reports.job.setting'), tx.t('reports.job.value')], flattenSettings(config), [36, 24]);
  return toBuffer(wb);
}

export async function specimenXlsx(d: SpecimenReportData): Promise<Buffer> {
  const { tx } = d;
  const wb = new (ExcelJS().Workbook)();
  wb.creator = d.letterhead.author;
  wb.created = d.generatedAt;
  const summary: Array<Array<string | number | null>> = [
    [tx.t('reports.specimen.project'), d.project.name],
    [tx.t('reports.specimen.description'), d.project.description ?? ''],
    [tx.t('reports.specimen.owner'), d.project.ownerName],
    [tx.t('reports.specimen.fields'), d.fieldCount],
    [tx.t('reports.job.generatedAt'), tx.date(d.generatedAt)],
  ];
  addSheet(wb, tx.t('reports.xlsx.summary'), [tx.t('reports.job.property'), tx.t('reports.job.value')], summary, [26, 60]);
  const stats: Array<Array<string | number | null>> = [];
  for (const s of d.sections) {
    addSheet(
      wb,
      s.modelLabel,
      [
        tx.t('reports.specimen.field'),
        tx.t('reports.job.image'),
        tx.t('reports.job.jobId'),
        tx.t('reports.job.version'),
        withUnit(tx.t('reports.job.calibration'), 'µm/px'),
        tx.t('reports.job.calibrationSource'),
        tx.t('reports.specimen.mask'),
        tx.t('reports.specimen.choice'),
        ...s.columns.map((c) => withUnit(c.label, c.unit)),
        tx.t('reports.xlsx.derived'),
      ],
      s.rows.map((r) => [
        r.field,
        r.filename,
        r.jobId,
        r.modelVersion,
        r.pixelSizeUm,
        r.calibration,
        r.mask ? tx.t('reports.specimen.yes') : tx.t('reports.specimen.no'),
        r.accepted ? tx.t('reports.specimen.accepted') : tx.t('reports.specimen.newest'),
        ...s.columns.map((c) => r.values[c.key]),
        r.derived.map((k) => s.columns.find((c) => c.key === k)?.label ?? k).join('; '),
      ]),
    );
    for (const x of s.stats) {
      const flags = [
        x.kind === 'ci' && x.stats.raExceeded ? tx.t('reports.specimen.measureMore') : '',
        x.fewFields ? tx.t('reports.specimen.fewFields', { quantity: x.label, n: x.stats.n, min: MIN_FIELDS_SUGGESTED }) : '',
      ].filter(Boolean);
      stats.push([
        s.modelLabel,
        s.methods.join('; '),
        withUnit(x.label, x.unit),
        x.stats.n,
        x.stats.mean,
        x.stats.sd,
        x.kind === 'ci' ? x.stats.ci95 : null,
        x.kind === 'ci' ? x.stats.raPercent : null,
        x.g ? x.g.label : null,
        x.g ? x.g.stats.gOfMean : null,
        x.stats.min,
        x.stats.max,
        x.basis,
        flags.join('\n'),
      ]);
    }
  }
  addSheet(
    wb,
    tx.t('reports.specimen.statistics'),
    [
      tx.t('reports.job.model'),
      tx.t('reports.job.method'),
      tx.t('reports.specimen.statisticsOn'),
      'n',
      tx.t('reports.specimen.mean'),
      's',
      tx.t('reports.specimen.ci95'),
      '%RA',
      tx.t('reports.job.quantity'),
      tx.t('reports.specimen.gOfMean'),
      tx.t('reports.specimen.min'),
      tx.t('reports.specimen.max'),
      tx.t('reports.xlsx.basis'),
      tx.t('reports.xlsx.flag'),
    ],
    stats,
  );
  return toBuffer(wb);
}
