// Scale-bar detection: SEM data strip or overlay bar (usually on a dark plate), bar length in
// pixels, label read by OCR (value + unit) and micrometres per pixel.
import sharp from 'sharp';
import type { Gray, Rect } from './image.js';
import type { ModelVersion } from './types.js';
import { ocrLabel, ocrLine } from './ocr.js';
import { floodBox } from './scalebar/flood.js';
import { detectBare, detectGeneral, subpixelLength, type Polarity } from './scalebar/general.js';

export type LengthUnit = 'nm' | 'µm' | 'mm';
export const UNIT_TO_UM: Record<LengthUnit, number> = { nm: 0.001, µm: 1, mm: 1000 };

export interface ScaleBarResult {
  found: boolean;
  value?: number;
  unit?: LengthUnit;
  lengthPx?: number;
  pixelSizeUm?: number;
  style?: 'sem' | 'overlay';
  /** Light bar on dark, or dark bar on light (the general search, 20261201). */
  polarity?: Polarity;
  bar?: Rect;
  label?: Rect;
  ocrText?: string;
  /** Regions to exclude from every measurement (data strip, plate). */
  exclude: Rect[];
  /** Micrograph area above an SEM data strip (full image when no strip). */
  micrograph: Rect;
  /** A bar was found but its label did not read as a length (the bar was not used). */
  unreadable?: boolean;
}

const DARK = 50;
const BRIGHT = 190;

/** Bottom data strip: a block of rows, mostly near-black, at the bottom of the image. */
export function findDataStrip(img: Gray): number | null {
  const { width: w, height: h, data } = img;
  const step = Math.max(1, Math.floor(w / 2000));
  // a strip row is mostly black with only white text: few mid-grey pixels
  const darkFrac = (y: number) => {
    let d = 0,
      mid = 0,
      n = 0;
    for (let x = 0; x < w; x += step, n++) {
      const v = data[y * w + x];
      if (v < DARK) d++;
      else if (v < BRIGHT - 40) mid++;
    }
    return mid / n < 0.12 && d / n > 0.35 ? 1 : d / n;
  };
  let y = h - 1;
  while (y >= 0 && darkFrac(y) > 0.6) y--;
  const stripH = h - 1 - y;
  if (stripH < Math.max(12, h * 0.03) || stripH > h * 0.4) return null;
  // the micrograph above must not be dark itself (sharp transition)
  if (y < 0 || darkFrac(y) > 0.5) return null;
  return y + 1;
}

interface Run {
  y: number;
  x0: number;
  x1: number;
}

/** Bright horizontal bars (solid rectangles) with dark just above and below them. */
export function findBars(img: Gray, region: Rect, minLen = 25): Rect[] {
  const { width: w, data } = img;
  const runs: Run[] = [];
  for (let y = region.y; y < region.y + region.height; y++) {
    let x = region.x;
    const xe = region.x + region.width;
    const row = y * w;
    while (x < xe) {
      if (data[row + x] >= BRIGHT) {
        const x0 = x;
        while (x < xe && data[row + x] >= BRIGHT) x++;
        if (x - x0 >= minLen) runs.push({ y, x0, x1: x - 1 });
      } else x++;
    }
  }
  // group vertically consecutive runs with the same extent
  const bars: Rect[] = [];
  const used = new Uint8Array(runs.length);
  for (let i = 0; i < runs.length; i++) {
    if (used[i]) continue;
    let cur = runs[i];
    const group = [cur];
    used[i] = 1;
    for (let j = i + 1; j < runs.length && runs[j].y <= cur.y + 1; j++) {
      if (used[j] || runs[j].y !== cur.y + 1) continue;
      if (Math.abs(runs[j].x0 - cur.x0) <= 2 && Math.abs(runs[j].x1 - cur.x1) <= 2) {
        used[j] = 1;
        group.push(runs[j]);
        cur = runs[j];
      }
    }
    const hgt = group.length;
    const x0 = Math.round(median(group.map((r) => r.x0)));
    const x1 = Math.round(median(group.map((r) => r.x1)));
    const len = x1 - x0 + 1;
    if (hgt < 2 || hgt > len / 5) continue;
    const top = group[0].y,
      bottom = group[group.length - 1].y;
    // dark above and below across the bar's extent
    const darkRow = (y: number) => {
      if (y < 0 || y >= img.height) return true;
      let d = 0;
      for (let x = x0; x <= x1; x++) if (data[y * w + x] < DARK) d++;
      return d / len > 0.7;
    };
    if (!darkRow(bottom + 2) && !darkRow(bottom + 1)) continue;
    if (!darkRow(top - 2) && !darkRow(top - 1)) continue;
    bars.push({ x: x0, y: top, width: len, height: hgt });
  }
  return bars;
}

function median(a: number[]): number {
  const s = [...a].sort((p, q) => p - q);
  return s[s.length >> 1];
}

/** Dark plate around a bar by flood fill of dark pixels, bounded to a window. */
function findPlate(img: Gray, bar: Rect): Rect | null {
  const { width: w, height: h, data } = img;
  const win = {
    x0: Math.max(0, bar.x - bar.width),
    x1: Math.min(w - 1, bar.x + 2 * bar.width),
    y0: Math.max(0, bar.y - bar.width),
    y1: Math.min(h - 1, bar.y + bar.width),
  };
  const sx = bar.x + (bar.width >> 1);
  let sy = bar.y + bar.height;
  while (sy <= win.y1 && data[sy * w + sx] >= DARK) sy++;
  if (sy > win.y1) return null;
  const fill = floodBox(data, w, h, win, sx, sy, (v) => v < DARK);
  if (fill.touches) return null;
  const minX = Math.min(fill.minX, bar.x),
    maxX = Math.max(fill.maxX, bar.x + bar.width - 1);
  const minY = Math.min(fill.minY, bar.y),
    maxY = Math.max(fill.maxY, bar.y + bar.height - 1);
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** Text line next to the bar (above first, then below): bounding box of its bright glyphs. */
export function findLabel(img: Gray, bar: Rect, bounds: Rect): Rect | null {
  const { width: w, data } = img;
  const xa = Math.max(bounds.x, bar.x - bar.width),
    xb = Math.min(bounds.x + bounds.width - 1, bar.x + 2 * bar.width);
  const rowHasBright = (y: number) => {
    for (let x = xa; x <= xb; x++) if (data[y * w + x] >= BRIGHT) return true;
    return false;
  };
  for (const dir of [-1, 1]) {
    let y = dir < 0 ? bar.y - 1 : bar.y + bar.height;
    const yLimit =
      dir < 0
        ? Math.max(bounds.y, bar.y - Math.max(120, bar.width))
        : Math.min(bounds.y + bounds.height - 1, bar.y + bar.height + Math.max(120, bar.width));
    // rows strictly before the limit: a bar on the edge of the bounds starts past it (and `y !== yLimit` never ended)
    const before = (v: number) => (dir < 0 ? v > yLimit : v < yLimit);
    let gap = 0;
    while (before(y) && !rowHasBright(y)) {
      y += dir;
      gap++;
    }
    if (!before(y) || gap > Math.max(40, bar.width)) continue;
    const y0 = y;
    while (before(y) && rowHasBright(y)) y += dir;
    const top = Math.min(y0, y - dir),
      bottom = Math.max(y0, y - dir);
    const th = bottom - top + 1;
    if (th < 5) continue;
    // column clusters in this band
    const cols: boolean[] = [];
    for (let x = xa; x <= xb; x++) {
      let b = false;
      for (let yy = top; yy <= bottom && !b; yy++) if (data[yy * w + x] >= BRIGHT) b = true;
      cols.push(b);
    }
    const clusters: [number, number][] = [];
    let start = -1,
      lastOn = -1;
    for (let i = 0; i < cols.length; i++) {
      if (!cols[i]) continue;
      if (start < 0) start = i;
      else if (i - lastOn > th * 0.9) {
        clusters.push([start, lastOn]);
        start = i;
      }
      lastOn = i;
    }
    if (start >= 0) clusters.push([start, lastOn]);
    const barC0 = bar.x - xa,
      barC1 = bar.x + bar.width - 1 - xa;
    // the cluster overlapping the bar's span (closest to its centre)
    let best: [number, number] | null = null,
      bestD = Infinity;
    for (const c of clusters) {
      const overlap = Math.min(c[1], barC1) - Math.max(c[0], barC0);
      const d = Math.abs((c[0] + c[1]) / 2 - (barC0 + barC1) / 2);
      if (overlap >= 0 && d < bestD) {
        best = c;
        bestD = d;
      }
    }
    if (!best) continue;
    return { x: xa + best[0], y: top, width: best[1] - best[0] + 1, height: th };
  }
  return null;
}

/** Does a glyph in the label descend well below the baseline (the Greek µ/μ)? */
function hasDescender(img: Gray, label: Rect): boolean {
  const { width: w, data } = img;
  // glyph column clusters
  const glyphs: { x0: number; x1: number; bottom: number; top: number }[] = [];
  let cur: { x0: number; x1: number; bottom: number; top: number } | null = null;
  for (let x = label.x; x < label.x + label.width; x++) {
    let top = -1,
      bottom = -1;
    for (let y = label.y; y < label.y + label.height; y++)
      if (data[y * w + x] >= BRIGHT) {
        if (top < 0) top = y;
        bottom = y;
      }
    if (top >= 0) {
      if (!cur) cur = { x0: x, x1: x, bottom, top };
      else {
        cur.x1 = x;
        cur.bottom = Math.max(cur.bottom, bottom);
        cur.top = Math.min(cur.top, top);
      }
    } else if (cur) {
      glyphs.push(cur);
      cur = null;
    }
  }
  if (cur) glyphs.push(cur);
  if (glyphs.length < 2) return false;
  const baseline = median(glyphs.map((g) => g.bottom));
  const capH = baseline - Math.min(...glyphs.map((g) => g.top)) + 1;
  return glyphs.some((g) => g.bottom - baseline > 0.18 * capH && g.x1 - g.x0 + 1 > 0.3 * capH);
}

export function parseLabel(text: string, descender: boolean): { value: number; unit: LengthUnit } | null {
  const t = text.replace(/[Oo](?=\d)|(?<=\d)[Oo]/g, '0').replace(/\s+/g, ' ');
  const m = /(\d+(?:[.,]\d+)?)\s*([A-Za-zµμ]{0,4})/.exec(t);
  if (!m) return null;
  const value = parseFloat(m[1].replace(',', '.'));
  if (!isFinite(value) || value <= 0) return null;
  const u = m[2].toLowerCase();
  let unit: LengthUnit;
  if (descender || /^[µμ]/.test(u)) unit = 'µm';
  else if (u === 'nm') unit = 'nm';
  else if (u === 'mm') unit = 'mm';
  else unit = 'µm'; // um, pm, ym, jm ... are OCR readings of µm
  return { value, unit };
}

async function labelPng(img: Gray, label: Rect): Promise<Buffer> {
  const pad = Math.round(label.height * 0.6);
  const x0 = Math.max(0, label.x - pad),
    y0 = Math.max(0, label.y - pad);
  const x1 = Math.min(img.width, label.x + label.width + pad),
    y1 = Math.min(img.height, label.y + label.height + pad);
  const cw = x1 - x0,
    ch = y1 - y0;
  const crop = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) {
      const gx = x0 + x,
        gy = y0 + y;
      const inside = gx >= label.x - 2 && gx < label.x + label.width + 2 && gy >= label.y - 1 && gy < label.y + label.height + 1;
      const v = img.data[gy * img.width + gx];
      crop[y * cw + x] = inside && v >= 128 ? 0 : 255; // binarise + invert: dark text on white; blank the bar
    }
  const scale = Math.max(1, Math.min(4, 48 / label.height));
  return sharp(Buffer.from(crop), { raw: { width: cw, height: ch, channels: 1 } })
    .resize(Math.round(cw * scale), Math.round(ch * scale), { kernel: 'cubic' })
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
    .png()
    .toBuffer();
}

/**
 * Finds and reads the scale bar. `method` 20241025: search the bottom data strip only;
 * 20250101: data strip, then overlay bars anywhere (plate detection), glyph descender check for µ.
 * 20261201 and later (older versions keep their stored results): when that finds nothing readable, the general search (scalebar/general.ts): bars of either
 * polarity and style anywhere, the label nearest to the bar, the strip, box or plate around them excluded.
 */
export async function detectScaleBar(img: Gray, method: ModelVersion = '20250101'): Promise<ScaleBarResult> {
  if (method < '20261201') return detectWhiteOnBlack(img, method);
  const general = await detectGeneral(img, ocrLabel);
  let g = general.result;
  if (!g) {
    const first = await detectWhiteOnBlack(img, method);
    if (first.found) {
      // the ends to a fraction of a pixel (a resampled bar's ends are grey): the same length for a crisp bar
      const lengthPx = Math.round(subpixelLength(img, first.bar!, 'light') * 100) / 100;
      return { ...first, lengthPx, pixelSizeUm: (first.value! * UNIT_TO_UM[first.unit!]) / lengthPx, polarity: 'light' };
    }
    // last, a bar bare on the micrograph by its local contrast (a black bar on a dark phase, a label among pores)
    const bare = await detectBare(img, ocrLabel);
    g = bare.result;
    if (!g) {
      // (the bare search's looser look does not by itself report an unreadable label)
      const unreadable = general.unreadable || first.bar;
      return { found: false, exclude: first.exclude, micrograph: first.micrograph, ...(unreadable ? { unreadable: true } : {}) };
    }
  }
  // a dark data strip at the bottom found the older way (its text is not the label's) is left out too
  const stripTop = findDataStrip(img);
  let micrograph: Rect = stripTop != null ? { x: 0, y: 0, width: img.width, height: stripTop } : { x: 0, y: 0, width: img.width, height: img.height };
  const exclude: Rect[] = stripTop != null ? [{ x: 0, y: stripTop, width: img.width, height: img.height - stripTop }] : [];
  if (g.strip) {
    const m = g.region;
    const top = g.strip === 'bottom' ? micrograph.y : Math.max(micrograph.y, m.y + m.height);
    const bottom = g.strip === 'bottom' ? Math.min(micrograph.y + micrograph.height, m.y) : micrograph.y + micrograph.height;
    if (bottom - top >= 16) micrograph = { x: micrograph.x, y: top, width: micrograph.width, height: bottom - top };
  }
  exclude.push(g.region);
  const lengthPx = Math.round(g.bar.lengthPx * 100) / 100;
  return {
    found: true,
    value: g.parsed.value,
    unit: g.parsed.unit,
    lengthPx,
    pixelSizeUm: (g.parsed.value * UNIT_TO_UM[g.parsed.unit]) / lengthPx,
    style: g.strip ? 'sem' : 'overlay',
    polarity: g.bar.polarity,
    bar: g.bar.rect,
    label: g.label.rect,
    ocrText: g.text,
    exclude,
    micrograph,
  };
}

async function detectWhiteOnBlack(img: Gray, method: ModelVersion): Promise<ScaleBarResult> {
  const full: Rect = { x: 0, y: 0, width: img.width, height: img.height };
  const stripTop = findDataStrip(img);
  const micrograph: Rect = stripTop != null ? { x: 0, y: 0, width: img.width, height: stripTop } : full;
  const exclude: Rect[] = stripTop != null ? [{ x: 0, y: stripTop, width: img.width, height: img.height - stripTop }] : [];
  let bar: Rect | undefined,
    style: 'sem' | 'overlay' | undefined,
    bounds: Rect = full;
  if (stripTop != null) {
    const strip = exclude[0];
    const bars = findBars(img, strip);
    if (bars.length) {
      bar = bars.sort((a, b) => b.width - a.width)[0];
      style = 'sem';
      bounds = strip;
    }
  }
  if (!bar && method >= '20250101') {
    const bars = findBars(img, micrograph).filter((b) => b.width < img.width * 0.6);
    // prefer bars on a plate
    for (const b of bars.sort((a, c) => c.width - a.width)) {
      const plate = findPlate(img, b);
      if (plate) {
        bar = b;
        style = 'overlay';
        exclude.push(pad(plate, 3, img));
        bounds = plate;
        break;
      }
    }
  }
  if (!bar) return { found: false, exclude, micrograph };
  const label = findLabel(img, bar, bounds);
  if (!label) return { found: false, exclude, micrograph, bar };
  if (style === 'overlay' && exclude.length === 0) exclude.push(pad(unionRect(bar, label), 4, img));
  const text = await ocrLine(await labelPng(img, label));
  const parsed = parseLabel(text, method >= '20250101' ? hasDescender(img, label) : false);
  if (!parsed) return { found: false, exclude, micrograph, bar, label, ocrText: text };
  const lengthPx = bar.width;
  return {
    found: true,
    value: parsed.value,
    unit: parsed.unit,
    lengthPx,
    pixelSizeUm: (parsed.value * UNIT_TO_UM[parsed.unit]) / lengthPx,
    style,
    bar,
    label,
    ocrText: text,
    exclude,
    micrograph,
  };
}

function unionRect(a: Rect, b: Rect): Rect {
  const x0 = Math.min(a.x, b.x),
    y0 = Math.min(a.y, b.y);
  const x1 = Math.max(a.x + a.width, b.x + b.width),
    y1 = Math.max(a.y + a.height, b.y + b.height);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function pad(r: Rect, p: number, img: Gray): Rect {
  const x0 = Math.max(0, r.x - p),
    y0 = Math.max(0, r.y - p);
  const x1 = Math.min(img.width, r.x + r.width + p),
    y1 = Math.min(img.height, r.y + r.height + p);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
