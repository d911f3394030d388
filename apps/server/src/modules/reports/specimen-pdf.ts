import type { SpecimenReportData, SpecimenSection } from './data.ts';
import { COLORS, decoratePages, heading, paragraph, startReport, table, toBuffer, type Doc } from './pdf-draw.ts';
import { formatValue } from './specimen.ts';
import { MIN_FIELDS_SUGGESTED, RA_LIMIT_PERCENT } from './statistics.ts';

/** The specimen report as an A4 PDF: the project, then per model its fields and the field statistics. */
export async function specimenPdf(d: SpecimenReportData): Promise<Buffer> {
  const { tx } = d;
  const title = tx.t('reports.specimen.title');
  const doc = startReport(title, d.project.name, d.project.name, d.letterhead.author);
  heading(doc, tx.t('reports.specimen.details'));
  table(
    doc,
    [
      { header: tx.t('reports.job.property'), width: 1 },
      { header: tx.t('reports.job.value'), width: 2.2 },
    ],
    [
      [tx.t('reports.specimen.project'), d.project.name],
      [tx.t('reports.specimen.description'), d.project.description || '–'],
      [tx.t('reports.specimen.owner'), d.project.ownerName],
      [tx.t('reports.specimen.fields'), tx.int(d.fieldCount)],
      [tx.t('reports.job.generatedAt'), tx.date(d.generatedAt)],
    ],
  );
  paragraph(doc, tx.t('reports.specimen.intro'), { color: COLORS.dim, size: 8.5 });
  if (!d.sections.length) paragraph(doc, tx.t('reports.specimen.empty'));
  for (const s of d.sections) section(doc, d, s);
  decoratePages(doc, {
    logo: d.letterhead.logo,
    company: d.letterhead.company,
    title,
    footer: tx.t('reports.specimen.footer', { name: d.project.name, date: tx.date(d.generatedAt) }),
    pageOf: (n, total) => tx.t('reports.pageOf', { n, total }),
  });
  return toBuffer(doc);
}

const withUnit = (label: string, unit: string) => (unit ? `${label} (${unit})` : label);

function section(doc: Doc, d: SpecimenReportData, s: SpecimenSection): void {
  const { tx } = d;
  heading(doc, s.modelLabel, 13);
  if (s.methods.length) paragraph(doc, s.methods.join(' · '), { color: COLORS.dim });
  // which job represents each field: the job, its version, calibration and mask, accepted or the newest
  heading(doc, tx.t('reports.specimen.fieldJobs'), 11);
  table(
    doc,
    [
      { header: tx.t('reports.specimen.field'), width: 0.45, align: 'right' },
      { header: tx.t('reports.job.image'), width: 1.2 },
      { header: tx.t('reports.specimen.job'), width: 0.75 },
      { header: tx.t('reports.job.version'), width: 0.8 },
      { header: tx.t('reports.job.calibration'), width: 1.6 },
      { header: tx.t('reports.specimen.mask'), width: 0.5 },
      { header: tx.t('reports.specimen.choice'), width: 0.75 },
    ],
    s.rows.map((r) => [
      String(r.field),
      r.filename,
      r.jobId.slice(0, 8),
      r.modelVersion,
      r.calibration,
      r.mask ? tx.t('reports.specimen.yes') : tx.t('reports.specimen.no'),
      r.accepted ? tx.t('reports.specimen.accepted') : tx.t('reports.specimen.newest'),
    ]),
  );
  heading(doc, tx.t('reports.specimen.fieldValues'), 11);
  table(
    doc,
    [
      { header: tx.t('reports.specimen.field'), width: 0.45, align: 'right' },
      { header: tx.t('reports.job.image'), width: 1.1 },
      ...s.columns.map((c) => ({ header: withUnit(c.label, c.unit), width: 1.1, align: 'right' as const })),
    ],
    s.rows.map((r) => [
      String(r.field),
      r.filename,
      ...s.columns.map((c) => formatValue(tx, r.values[c.key], c.digits) + (r.derived.includes(c.key) ? ' *' : '')),
    ]),
  );
  for (const key of new Set(s.rows.flatMap((r) => r.derived))) {
    const fields = s.rows.filter((r) => r.derived.includes(key)).map((r) => r.field);
    const column = s.columns.find((c) => c.key === key);
    paragraph(doc, `* ${tx.t('reports.specimen.derived', { fields: fields.join(', '), quantity: column?.label ?? key })}`, {
      color: COLORS.dim,
      size: 8,
    });
  }
  const ci = s.stats.filter((x) => x.kind === 'ci');
  const range = s.stats.filter((x) => x.kind === 'range');
  if (ci.length) {
    const anyG = ci.some((x) => x.g);
    heading(doc, tx.t('reports.specimen.statistics'), 11);
    table(
      doc,
      [
        { header: tx.t('reports.specimen.statisticsOn'), width: 1.7 },
        { header: 'n', width: 0.35, align: 'right' },
        { header: tx.t('reports.specimen.mean'), width: 0.8, align: 'right' },
        { header: 's', width: 0.8, align: 'right' },
        { header: tx.t('reports.specimen.ci95'), width: 0.9, align: 'right' },
        { header: '%RA', width: 0.55, align: 'right' },
        ...(anyG ? [{ header: tx.t('reports.specimen.gOfMean'), width: 1.3, align: 'right' as const }] : []),
      ],
      ci.map((x) => [
        withUnit(x.label, x.unit),
        tx.int(x.stats.n),
        formatValue(tx, x.stats.mean, x.digits),
        formatValue(tx, x.stats.sd, x.digits),
        x.stats.ci95 === null ? '–' : `± ${formatValue(tx, x.stats.ci95, x.digits)}`,
        tx.num(x.stats.raPercent, 1) + (x.stats.raExceeded ? ' !' : ''),
        ...(anyG ? [x.g ? `${x.g.label}: ${tx.num(x.g.stats.gOfMean, 2)}` : '–'] : []),
      ]),
    );
    for (const x of ci) paragraph(doc, x.basis, { color: COLORS.dim, size: 8 });
    if (anyG) paragraph(doc, tx.t('reports.specimen.e112Note'), { color: COLORS.dim, size: 8 });
    paragraph(doc, tx.t('reports.specimen.ciNote'), { color: COLORS.dim, size: 8 });
    for (const x of ci) {
      if (x.stats.raExceeded) {
        paragraph(
          doc,
          `${tx.t('reports.specimen.measureMore')}: ${tx.t('reports.specimen.raNote', { quantity: x.label, ra: tx.num(x.stats.raPercent, 1), limit: RA_LIMIT_PERCENT })}`,
          {
            color: COLORS.warn,
          },
        );
      }
      if (x.stats.n === 1) paragraph(doc, tx.t('reports.specimen.oneField', { quantity: x.label }), { color: COLORS.warn });
      if (x.fewFields)
        paragraph(doc, tx.t('reports.specimen.fewFields', { quantity: x.label, n: x.stats.n, min: MIN_FIELDS_SUGGESTED }), { color: COLORS.warn });
    }
  }
  if (range.length) {
    heading(doc, tx.t('reports.specimen.statistics'), 11);
    table(
      doc,
      [
        { header: tx.t('reports.specimen.statisticsOn'), width: 2 },
        { header: 'n', width: 0.4, align: 'right' },
        { header: tx.t('reports.specimen.mean'), width: 0.8, align: 'right' },
        { header: 's', width: 0.8, align: 'right' },
        { header: tx.t('reports.specimen.min'), width: 0.8, align: 'right' },
        { header: tx.t('reports.specimen.max'), width: 0.8, align: 'right' },
      ],
      range.map((x) => [
        withUnit(x.label, x.unit),
        tx.int(x.stats.n),
        formatValue(tx, x.stats.mean, x.digits),
        formatValue(tx, x.stats.sd, x.digits),
        formatValue(tx, x.stats.min, x.digits),
        formatValue(tx, x.stats.max, x.digits),
      ]),
    );
    paragraph(doc, tx.t('reports.specimen.rangeNote'), { color: COLORS.dim, size: 8 });
  }
}
