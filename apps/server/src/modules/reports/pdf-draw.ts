import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** pdfkit takes a second to load: it is required at the first report, not at the server's start (issue 30 item 5). */
let pdfkit: typeof import('pdfkit') | undefined;
const PDFDocument = () => (pdfkit ??= createRequire(import.meta.url)('pdfkit') as typeof import('pdfkit'));

/**
 * Drawing pieces of the PDF reports on pdfkit: the A4 document with a Unicode font, headings, key/value lists,
 * tables that continue on the next page (header row repeated), and charts drawn as vector paths (bars, axes,
 * ticks) from the result's data, never as pictures.
 */
export type Doc = PDFKit.PDFDocument;

/** Debian's DejaVu Sans when installed (µ, ±, ≥, ², Å, Greek); pdfkit's built-in Helvetica otherwise. */
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

export const MARGIN = { top: 78, bottom: 52, left: 45, right: 45 };
export const COLORS = { text: '#1a1b1e', dim: '#6b6f76', line: '#c9ccd1', zebra: '#f3f4f6', head: '#e7ecf3', accent: '#1c7ed6', warn: '#e8590c' };
const PALETTE = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00'];

export function createDoc(info: { title: string; author: string }): Doc {
  const doc = new (PDFDocument())({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    info: { Title: info.title, Author: info.author, Creator: 'Lamella' },
  });
  const unicode = existsSync(DEJAVU) && existsSync(DEJAVU_BOLD);
  doc.registerFont('body', unicode ? DEJAVU : 'Helvetica');
  doc.registerFont('bold', unicode ? DEJAVU_BOLD : 'Helvetica-Bold');
  doc.font('body').fontSize(9).fillColor(COLORS.text);
  return doc;
}

/** The finished document's bytes. */
export function toBuffer(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export const contentWidth = (doc: Doc) => doc.page.width - MARGIN.left - MARGIN.right;
const bottom = (doc: Doc) => doc.page.height - MARGIN.bottom;

/** Starts a new page when `height` points do not fit below the cursor. */
export function need(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) {
    doc.addPage();
    doc.y = MARGIN.top;
  }
}

export function heading(doc: Doc, text: string, size = 12): void {
  need(doc, size * 3 + 40);
  doc.moveDown(0.6);
  doc
    .font('bold')
    .fontSize(size)
    .fillColor(COLORS.text)
    .text(text, MARGIN.left, doc.y, { width: contentWidth(doc) });
  doc.moveDown(0.3);
  doc.font('body').fontSize(9);
}

export function paragraph(doc: Doc, text: string, options: { color?: string; size?: number } = {}): void {
  doc.font('body').fontSize(options.size ?? 9);
  const h = doc.heightOfString(text, { width: contentWidth(doc) });
  need(doc, h + 4);
  doc.fillColor(options.color ?? COLORS.text).text(text, MARGIN.left, doc.y, { width: contentWidth(doc) });
  doc.fillColor(COLORS.text);
  doc.moveDown(0.3);
}

export interface Column {
  header: string;
  /** Share of the content width. */
  width: number;
  align?: 'left' | 'right';
}

/** A table with a header row; rows that do not fit continue on the next page under a repeated header. */
export function table(doc: Doc, columns: Column[], rows: string[][]): void {
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * contentWidth(doc));
  const pad = 3;
  const sizeOf = (font: string) => (font === 'bold' ? 7.5 : 8.5);
  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(sizeOf(font));
    return Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: widths[i] - 2 * pad }))) + 2 * pad;
  };
  const drawRow = (cells: string[], font: string, fill: string | null) => {
    const h = rowHeight(cells, font);
    if (fill) doc.rect(MARGIN.left, doc.y, contentWidth(doc), h).fill(fill);
    let x = MARGIN.left;
    const y = doc.y;
    doc.font(font).fontSize(sizeOf(font)).fillColor(COLORS.text);
    cells.forEach((c, i) => {
      doc.text(c, x + pad, y + pad, { width: widths[i] - 2 * pad, align: columns[i].align ?? 'left' });
      x += widths[i];
    });
    doc
      .moveTo(MARGIN.left, y + h)
      .lineTo(MARGIN.left + contentWidth(doc), y + h)
      .lineWidth(0.4)
      .strokeColor(COLORS.line)
      .stroke();
    doc.y = y + h;
  };
  const head = columns.map((c) => c.header);
  need(doc, rowHeight(head, 'bold') + (rows[0] ? rowHeight(rows[0], 'body') : 0));
  drawRow(head, 'bold', COLORS.head);
  rows.forEach((r, i) => {
    const h = rowHeight(r, 'body');
    if (doc.y + h > bottom(doc)) {
      doc.addPage();
      doc.y = MARGIN.top;
      drawRow(head, 'bold', COLORS.head);
    }
    drawRow(r, 'body', i % 2 ? COLORS.zebra : null);
  });
  doc.x = MARGIN.left;
  doc.moveDown(0.5);
}

/** Ticks 0…≥max at a 1-2-5 step; whole numbers when the values are counts. */
export function niceTicks(max: number, count = 5, integer = false): number[] {
  const top = max > 0 ? max : 1;
  const raw = top / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  let step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks: number[] = [];
  for (let v = 0; v < top + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  /** One group per x position: its label and one value per series. */
  groups: Array<{ label: string; values: number[] }>;
  series: string[];
  /** Contiguous bars (a histogram) rather than separated groups. */
  histogram: boolean;
  /** Whole-number y ticks (counts). */
  integer: boolean;
  formatTick: (v: number) => string;
}

/** A bar chart or histogram as vector graphics: axes, y grid and ticks, x labels (thinned to fit), legend. */
export function chart(doc: Doc, spec: ChartSpec): void {
  const height = 190;
  need(doc, height + 30);
  doc
    .font('bold')
    .fontSize(9.5)
    .fillColor(COLORS.text)
    .text(spec.title, MARGIN.left, doc.y, { width: contentWidth(doc) });
  const top = doc.y + 6;
  const left = MARGIN.left + 42;
  const w = contentWidth(doc) - 50;
  const h = height - 50;
  const max = Math.max(0, ...spec.groups.flatMap((g) => g.values.filter(Number.isFinite)));
  const ticks = niceTicks(max, 5, spec.integer);
  const yMax = ticks[ticks.length - 1] || 1;
  const yOf = (v: number) => top + h - (v / yMax) * h;
  doc.font('body').fontSize(7).lineWidth(0.4);
  for (const tk of ticks) {
    doc
      .moveTo(left, yOf(tk))
      .lineTo(left + w, yOf(tk))
      .strokeColor(COLORS.line)
      .stroke();
    doc.fillColor(COLORS.dim).text(spec.formatTick(tk), MARGIN.left, yOf(tk) - 3.5, { width: 38, align: 'right', lineBreak: false });
  }
  const n = Math.max(1, spec.groups.length);
  const slot = w / n;
  const gap = spec.histogram ? 0 : Math.min(6, slot * 0.2);
  const barW = (slot - gap) / Math.max(1, spec.series.length);
  spec.groups.forEach((g, i) => {
    g.values.forEach((v, s) => {
      if (!Number.isFinite(v) || v <= 0) return;
      const x = left + i * slot + gap / 2 + s * barW;
      doc
        .rect(x, yOf(v), Math.max(0.5, barW - (spec.histogram ? 0.6 : 0)), top + h - yOf(v))
        .fillColor(PALETTE[s % PALETTE.length])
        .fill();
    });
  });
  doc
    .moveTo(left, top)
    .lineTo(left, top + h)
    .lineTo(left + w, top + h)
    .lineWidth(0.8)
    .strokeColor(COLORS.text)
    .stroke();
  // x labels: as many as fit side by side
  doc.font('body').fontSize(7).fillColor(COLORS.dim);
  const widest = Math.max(10, ...spec.groups.map((g) => doc.widthOfString(g.label)));
  const every = Math.max(1, Math.ceil((widest + 6) / slot));
  spec.groups.forEach((g, i) => {
    if (i % every) return;
    const cx = left + i * slot + slot / 2;
    doc
      .moveTo(cx, top + h)
      .lineTo(cx, top + h + 3)
      .strokeColor(COLORS.text)
      .stroke();
    doc.text(g.label, cx - (slot * every) / 2, top + h + 5, { width: slot * every, align: 'center', lineBreak: false });
  });
  doc.fillColor(COLORS.text).fontSize(8);
  doc.text(spec.xLabel, left, top + h + 17, { width: w, align: 'center', lineBreak: false });
  doc.save().rotate(-90, { origin: [MARGIN.left - 8, top + h / 2] });
  doc.text(spec.yLabel, MARGIN.left - 8 - h / 2, top + h / 2 - 8, { width: h, align: 'center', lineBreak: false });
  doc.restore();
  if (spec.series.length > 1) {
    let x = left;
    spec.series.forEach((s, i) => {
      doc
        .rect(x, top + h + 30, 8, 8)
        .fillColor(PALETTE[i % PALETTE.length])
        .fill();
      doc.fillColor(COLORS.text).text(s, x + 11, top + h + 30, { lineBreak: false });
      x += 20 + doc.widthOfString(s);
    });
  }
  doc.x = MARGIN.left;
  doc.y = top + height - 6;
}

/** Letterhead on every page (logo, company, title) and the footer (reference, page n of m), drawn at the end. */
export function decoratePages(
  doc: Doc,
  o: { logo: Buffer | null; company: string; title: string; footer: string; pageOf: (n: number, m: number) => string },
) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    let textLeft = MARGIN.left;
    if (o.logo) {
      try {
        doc.image(o.logo, MARGIN.left, 24, { fit: [110, 38] });
        textLeft = MARGIN.left + 120;
      } catch {
        // a logo pdfkit cannot read is left out rather than failing the report
      }
    }
    const w = doc.page.width - MARGIN.right - textLeft;
    doc.font('bold').fontSize(11).fillColor(COLORS.text).text(o.company, textLeft, 28, { width: w, align: 'right', lineBreak: false });
    doc.font('body').fontSize(8.5).fillColor(COLORS.dim).text(o.title, textLeft, 44, { width: w, align: 'right', lineBreak: false });
    const lineY = 66;
    doc
      .moveTo(MARGIN.left, lineY)
      .lineTo(doc.page.width - MARGIN.right, lineY)
      .lineWidth(0.6)
      .strokeColor(COLORS.accent)
      .stroke();
    const fy = doc.page.height - 34;
    doc.font('body').fontSize(7.5).fillColor(COLORS.dim);
    doc.text(o.footer, MARGIN.left, fy, { width: 380, lineBreak: false });
    doc.text(o.pageOf(i - range.start + 1, range.count), doc.page.width - MARGIN.right - 120, fy, { width: 120, align: 'right', lineBreak: false });
    doc.page.margins.bottom = keep;
  }
  doc.fillColor(COLORS.text);
}

/** A new report document (metadata title `title – name`) with its title block: the title and a dimmed subtitle. */
export function startReport(title: string, name: string, subtitle: string, author: string): Doc {
  const doc = createDoc({ title: `${title} – ${name}`, author });
  doc.y = MARGIN.top;
  doc
    .font('bold')
    .fontSize(16)
    .text(title, MARGIN.left, doc.y, { width: contentWidth(doc) });
  doc
    .font('body')
    .fontSize(10)
    .fillColor(COLORS.dim)
    .text(subtitle, { width: contentWidth(doc) });
  doc.fillColor(COLORS.text);
  return doc;
}
