import {
  binDecimals,
  formatFixed,
  formatResultValue,
  resultImageCaption,
  type BarChartItem,
  type DataTableItem,
  type HistogramItem,
  type ResultItem,
} from '@lamella/contracts';
import type { JobReportData } from './data.ts';
import { chart, COLORS, contentWidth, decoratePages, heading, MARGIN, need, paragraph, startReport, table, toBuffer, type Doc } from './pdf-draw.ts';
import { flattenSettings, jobSummary, KEY_RESULTS } from './job-summary.ts';
import { modelName, quantityName, unitOf, type ReportText } from './text.ts';

/** The job report as an A4 PDF: facts, pictures, key results, every table and chart, messages, settings. */
export async function jobPdf(d: JobReportData): Promise<Buffer> {
  const { tx, job } = d;
  const title = tx.t('reports.job.title');
  const doc = startReport(title, job.image.orginalFilename, `${modelName(tx, job.model)} · ${job.image.orginalFilename}`, d.letterhead.author);

  heading(doc, tx.t('reports.job.details'));
  table(
    doc,
    [
      { header: tx.t('reports.job.property'), width: 1 },
      { header: tx.t('reports.job.value'), width: 2.2 },
    ],
    jobSummary(d).map((r) => [r.label, r.text]),
  );

  const m = job.result?.measurements ?? {};
  const keys = (KEY_RESULTS[job.model.name] ?? []).filter(([k]) => typeof m[k] === 'number');
  if (keys.length) {
    heading(doc, tx.t('reports.job.keyResults'));
    table(
      doc,
      [
        { header: tx.t('reports.job.quantity'), width: 2 },
        { header: tx.t('reports.job.value'), width: 1, align: 'right' },
        { header: tx.t('reports.job.unit'), width: 0.8 },
      ],
      keys.map(([k, kind]) => [quantityName(tx, k), formatResultValue(m[k], kind, tx.lng), unitOf(k)]),
    );
  }

  pictures(doc, d);

  if (!job.result) paragraph(doc, tx.t('reports.job.noResult'), { color: COLORS.dim });
  let tableNo = 0;
  let chartNo = 0;
  for (const item of job.result?.results ?? []) {
    if (item.type === 'data-table') {
      heading(doc, item.title || tx.t('reports.job.tableTitle', { n: ++tableNo }), 11);
      table(
        doc,
        [
          { header: tx.t('reports.job.quantity'), width: 2.4 },
          { header: tx.t('reports.job.value'), width: 1, align: 'right' },
          { header: tx.t('reports.job.unit'), width: 0.7 },
        ],
        item.rows.map((r) => [r.labelTooltip ? `${r.label}\n${r.labelTooltip}` : r.label, cell(tx, r.value, r.unit, r.kind), r.unit ?? '']),
      );
    } else if (item.type === 'histogram') {
      chart(doc, histogramSpec(tx, item, ++chartNo));
    } else if (item.type === 'bar-chart') {
      chart(doc, barSpec(tx, item, ++chartNo));
    } else if (item.type === 'message') {
      message(doc, item);
    }
  }

  const config = job.customization?.config;
  heading(doc, tx.t('reports.job.settingsUsed'));
  if (config && Object.keys(config).length) {
    table(
      doc,
      [
        { header: tx.t('reports.job.setting'), width: 1.4 },
        { header: tx.t('reports.job.value'), width: 1 },
      ],
      flattenSettings(config).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
    );
  } else paragraph(doc, tx.t('reports.job.defaultsText'));

  decoratePages(doc, {
    logo: d.letterhead.logo,
    company: d.letterhead.company,
    title,
    footer: tx.t('reports.job.footer', { id: job.id, date: tx.date(d.generatedAt) }),
    pageOf: (n, total) => tx.t('reports.pageOf', { n, total }),
  });
  return toBuffer(doc);
}

/**
 * A table value as the results page shows it, by the same rule (formatResultValue, packages/contracts): counts as
 * integers, a Jeffries count of halves with its ,5 (143,5, not 143,50), G and other numbers to 2 decimals (not the
 * model's 4), the pixel size to 4 significant digits. `kind` is the row's value kind (jobs/localise.ts adds it when
 * the job is read); a row without one is a plain number, or the pixel size by its unit.
 */
export function cell(tx: ReportText, v: number | string | null, unit?: string | null, kind?: DataTableItem['rows'][number]['kind']): string {
  if (typeof v !== 'number') return v ?? '–';
  return formatResultValue(v, kind ?? (unit === 'µm/px' ? 'pixelSize' : 'number'), tx.lng);
}

/** What each overlay the models draw shows, and the scale bar found (RESULT_IMAGE_KINDS, as the results page captions them); else "Overlay of the result". */
export function overlayCaption(tx: ReportText, filename: string): string {
  const kind = resultImageCaption(filename);
  return tx.t(kind ? `reports.job.overlays.${kind}` : 'reports.job.overlay');
}

/** The analysed image and the overlays, side by side (two per row), scaled to fit. */
function pictures(doc: Doc, d: JobReportData): void {
  const pics = [
    ...(d.picture ? [{ caption: d.tx.t('reports.job.picture'), data: d.picture }] : []),
    ...d.overlays.map((o) => ({ caption: overlayCaption(d.tx, o.filename), data: o.data })),
  ];
  if (!pics.length) return;
  heading(doc, d.tx.t('reports.job.images'));
  const gap = 12;
  const w = (contentWidth(doc) - gap) / 2;
  const h = 210;
  for (let i = 0; i < pics.length; i += 2) {
    need(doc, h + 20);
    const y = doc.y;
    pics.slice(i, i + 2).forEach((p, k) => {
      const x = MARGIN.left + k * (w + gap);
      doc.rect(x, y, w, h).lineWidth(0.4).strokeColor(COLORS.line).stroke();
      doc.image(p.data, x + 2, y + 2, { fit: [w - 4, h - 4], align: 'center', valign: 'center' });
      doc
        .font('body')
        .fontSize(8)
        .fillColor(COLORS.dim)
        .text(p.caption, x, y + h + 3, { width: w, align: 'center' });
    });
    doc.fillColor(COLORS.text);
    doc.x = MARGIN.left;
    doc.y = y + h + 16;
  }
}

function message(doc: Doc, item: Extract<ResultItem, { type: 'message' }>): void {
  const color = item.status === 'info' ? COLORS.accent : COLORS.warn;
  doc.font('bold').fontSize(9);
  need(doc, 30);
  doc.fillColor(color).text(item.title, MARGIN.left, doc.y + 4, { width: contentWidth(doc) });
  paragraph(doc, item.content);
}

export function histogramSpec(tx: ReportText, item: HistogramItem, n: number) {
  const unit = item.unit ? ` (${item.unit})` : '';
  const edge = (x: HistogramItem['data'][number]['x']) => (Array.isArray(x) ? x[0] : x);
  // each bin's lower edge, with the decimals of the bins' width, as the results page labels them (binDecimals)
  const decimals = binDecimals(item.data.map((p) => p.x));
  return {
    title: item.label || tx.t('reports.job.chartTitle', { n }),
    xLabel: `${item.xLabel ?? ''}${unit}`,
    yLabel: item.yLabel ?? '',
    groups: item.data.map((p) => ({ label: formatFixed(edge(p.x), decimals, tx.lng), values: [p.y] })),
    series: [item.yLabel ?? ''],
    histogram: true,
    // the y of a histogram is a count
    integer: true,
    formatTick: (v: number) => tx.int(v),
  };
}

function barSpec(tx: ReportText, item: BarChartItem, n: number) {
  const xKey = Object.keys(item.data[0] ?? {}).find((k) => !item.keys.includes(k)) ?? '';
  const yLabels = Array.isArray(item.yLabels) ? item.yLabels : item.yLabels ? [item.yLabels] : item.keys;
  const values = item.data.flatMap((r) => item.keys.map((k) => r[k])).filter((v): v is number => typeof v === 'number');
  const integer = values.every(Number.isInteger);
  return {
    title: item.title || tx.t('reports.job.chartTitle', { n }),
    xLabel: item.xLabel ?? xKey,
    yLabel: yLabels.join(', '),
    groups: item.data.map((r) => ({
      label: String(r[xKey] ?? ''),
      values: item.keys.map((k) => (typeof r[k] === 'number' ? (r[k] as number) : NaN)),
    })),
    series: yLabels,
    histogram: false,
    integer,
    formatTick: (v: number) => (integer ? tx.int(v) : tx.sig(v, 3)),
  };
}
