// General scale-bar detection (20261123 and later, after the older white-on-black search found nothing): bars
// of either polarity (light on dark, dark on light), plain, with end ticks or ruler divisions, on a data strip, a
// box or plate, or bare on the micrograph, anywhere in the image and at any resolution. A bar counts only with
// a label read by OCR beside it (above, below, left or right; the text line nearest to the bar).
import sharp from 'sharp';
import type { Gray, Rect } from '../image.js';
import { floodBox } from './flood.js';
import { parseLabelText, type ParsedLabel } from './label.js';

export type Polarity = 'light' | 'dark';

export interface BarCandidate {
  /** The bar's pixels at the class threshold (ticks included when they continue its ends). */
  rect: Rect;
  polarity: Polarity;
  /** Length between the half-contrast points of its two ends (sub-pixel). */
  lengthPx: number;
}

export interface TextLine {
  rect: Rect;
  /** Component pixels of the line (indices into the image), for the OCR crop. */
  pixels: Int32Array;
  /** Glyph boxes, left to right. */
  glyphs: Rect[];
}

export interface GeneralResult {
  bar: BarCandidate;
  label: TextLine;
  parsed: ParsedLabel;
  text: string;
  /** The strip, box or plate holding the bar and its label (or the two with a margin when bare). */
  region: Rect;
  /** A full-width data strip at the top or bottom: the micrograph is the rest. */
  strip: 'top' | 'bottom' | null;
}

/** Strict class thresholds: overlays are drawn in (near) pure white or black. */
const LIGHT = 215;
const DARK = 45;
const inClass = (v: number, p: Polarity) => (p === 'light' ? v >= LIGHT : v <= DARK);

function median(a: number[]): number {
  const s = [...a].sort((p, q) => p - q);
  return s.length ? s[s.length >> 1] : 0;
}

interface Group {
  y0: number;
  x0s: number[];
  x1s: number[];
  last: [number, number];
  /** the last row that extended it */
  seen: number;
}

/**
 * The class thresholds of a bar search: levels at or above `light` (at or below `dark`) are a light (dark) bar's,
 * and the bar must differ from the rows a few pixels above and below it by `minContrast` grey levels. With
 * `noiseFactor`, also by that many times the pixel noise of those rows (the bare search's local contrast).
 */
export interface BarClasses {
  light: number;
  dark: number;
  minContrast: number;
  noiseFactor?: number;
}
const STRICT: BarClasses = { light: LIGHT, dark: DARK, minContrast: 60 };

/** Horizontal bars: rows of class pixels with the same extent, in class contrast with the rows above and below. */
export function findBarCandidates(img: Gray, minLen?: number, classes: BarClasses = STRICT): BarCandidate[] {
  const { width: w, height: h, data } = img;
  const min = minLen ?? Math.max(16, Math.round(0.012 * Math.max(w, h)));
  const out: BarCandidate[] = [];
  const LIGHT = classes.light,
    DARK = classes.dark;
  for (const p of ['light', 'dark'] as Polarity[]) {
    const light = p === 'light';
    let open: Group[] = [];
    const close = (g: Group) => {
      const c = evaluate(img, g, p, min, classes);
      if (c) out.push(c);
    };
    for (let y = 0; y < h; y++) {
      const row = y * w;
      const next: Group[] = [];
      let x = 0;
      while (x < w) {
        const v = data[row + x];
        if (light ? v < LIGHT : v > DARK) {
          x++;
          continue;
        }
        const x0 = x;
        if (light) while (x < w && data[row + x] >= LIGHT) x++;
        else while (x < w && data[row + x] <= DARK) x++;
        const x1 = x - 1;
        if (x1 - x0 + 1 < min) continue;
        let g: Group | undefined;
        for (const o of open)
          if (o.seen !== y && Math.abs(o.last[0] - x0) <= 2 && Math.abs(o.last[1] - x1) <= 2) {
            g = o;
            break;
          }
        if (g) {
          g.x0s.push(x0);
          g.x1s.push(x1);
          g.last = [x0, x1];
        } else g = { y0: y, x0s: [x0], x1s: [x1], last: [x0, x1], seen: -1 };
        g.seen = y;
        next.push(g);
      }
      for (const o of open) if (o.seen !== y) close(o);
      open = next;
    }
    for (const o of open) close(o);
  }
  return out;
}

function evaluate(img: Gray, g: Group, p: Polarity, min: number, classes: BarClasses): BarCandidate | null {
  const { width: w, height: h, data } = img;
  const inClass = (v: number, p: Polarity) => (p === 'light' ? v >= classes.light : v <= classes.dark);
  const hgt = g.x0s.length;
  const x0 = median(g.x0s),
    x1 = median(g.x1s);
  const len = x1 - x0 + 1;
  if (hgt < 2 || len < min || hgt > len / 3 || len > 0.8 * w) return null;
  // straight ends: most rows end within a pixel of the median
  let straight = 0;
  for (let i = 0; i < hgt; i++) if (Math.abs(g.x0s[i] - x0) <= 1 && Math.abs(g.x1s[i] - x1) <= 1) straight++;
  if (straight < 0.6 * hgt) return null;
  const top = g.y0,
    bottom = g.y0 + hgt - 1;
  // rows beside the bar (within the blur of a resampled edge) are mostly of the other class
  const otherFrac = (y: number) => {
    if (y < 0 || y >= h) return 1;
    let n = 0;
    for (let x = x0; x <= x1; x++) if (!inClass(data[y * w + x], p)) n++;
    return n / len;
  };
  const side = (dir: -1 | 1) => {
    let best = 0;
    for (let k = 1; k <= 4; k++) best = Math.max(best, otherFrac(dir < 0 ? top - k : bottom + k));
    return best;
  };
  if (side(-1) < 0.7 || side(1) < 0.7) return null;
  // the contrast across the bar's long edges: bar level against the rows a few pixels away
  const d = Math.max(3, Math.min(8, hgt));
  const rowMean = (y: number) => {
    let s = 0;
    for (let x = x0; x <= x1; x++) s += data[y * w + x];
    return s / len;
  };
  const mid = (top + bottom) >> 1;
  const level = rowMean(mid);
  const around = [top - d, bottom + d].filter((y) => y >= 0 && y < h).map(rowMean);
  const contrast = around.length ? Math.min(...around.map((a) => Math.abs(a - level))) : 0;
  if (contrast < classes.minContrast) return null;
  if (classes.noiseFactor) {
    // pixel noise of the rows beside (neighbour differences: the micrograph's structure left out)
    const diffs: number[] = [];
    for (const y of [top - d, bottom + d])
      if (y >= 0 && y < h) for (let x = x0 + 1; x <= x1; x++) diffs.push(Math.abs(data[y * w + x] - data[y * w + x - 1]));
    const sigma = (1.4826 * median(diffs)) / Math.SQRT2;
    if (contrast < classes.noiseFactor * sigma) return null;
  }
  const rect = { x: x0, y: top, width: len, height: hgt };
  return { rect, polarity: p, lengthPx: subpixelLength(img, rect, p) };
}

/** Sub-pixel length on the middle rows: between the points where each end crosses half-way to the background beyond it. */
export function subpixelLength(img: Gray, r: Rect, p: Polarity): number {
  const lengths: number[] = [];
  const r0 = r.y + Math.floor(r.height / 3),
    r1 = Math.max(r0, r.y + r.height - 1 - Math.floor(r.height / 3));
  for (let y = r0; y <= r1; y++) {
    const e0 = edge(img.data, img.width, y, r.x, -1, p),
      e1 = edge(img.data, img.width, y, r.x + r.width - 1, 1, p);
    if (e0 !== null && e1 !== null) lengths.push(e1 - e0);
  }
  const l = lengths.length ? lengths.reduce((s, v) => s + v, 0) / lengths.length : r.width;
  return Math.abs(l - r.width) <= 3 ? l : r.width;
}

/** Position (pixel-centre coordinates) where the row crosses half-way between the bar level and the background beyond the end. */
function edge(data: Uint8Array, w: number, y: number, xe: number, dir: -1 | 1, p: Polarity): number | null {
  const row = y * w;
  const at = (x: number) => data[row + Math.max(0, Math.min(w - 1, x))];
  const inner = median([at(xe - 3 * dir), at(xe - 4 * dir), at(xe - 5 * dir)]);
  const bg = median([at(xe + 6 * dir), at(xe + 7 * dir), at(xe + 8 * dir)]);
  if (Math.abs(inner - bg) < 40) return null;
  const t = (inner + bg) / 2;
  // walk outwards from inside the bar until the value passes t
  for (let x = xe - 3 * dir; Math.abs(x - xe) <= 8; x += dir) {
    const a = at(x),
      b = at(x + dir);
    const inA = p === 'light' ? a >= t : a <= t;
    const inB = p === 'light' ? b >= t : b <= t;
    if (inA && !inB) return x + (dir * (a - t)) / (a - b);
  }
  return null;
}

/** Connected components (8-neighbour) of class pixels in a window, as lists of pixel indices with boxes. */
interface Comp {
  rect: Rect;
  pixels: Int32Array;
}

function components(img: Gray, win: Rect, isInk: (v: number) => boolean): Comp[] {
  const { width: w, data } = img;
  const ww = win.width,
    wh = win.height;
  const seen = new Uint8Array(ww * wh);
  const comps: Comp[] = [];
  const stack = new Int32Array(ww * wh);
  let buf = new Int32Array(1024);
  for (let yy = 0; yy < wh; yy++)
    for (let xx = 0; xx < ww; xx++) {
      const k = yy * ww + xx;
      if (seen[k] || !isInk(data[(win.y + yy) * w + win.x + xx])) continue;
      seen[k] = 1;
      let sp = 0,
        np = 0;
      stack[sp++] = k;
      let minX = xx,
        maxX = xx,
        minY = yy,
        maxY = yy;
      while (sp > 0) {
        const q = stack[--sp];
        const qx = q % ww,
          qy = (q - qx) / ww;
        if (np === buf.length) {
          const nb = new Int32Array(buf.length * 2);
          nb.set(buf);
          buf = nb;
        }
        buf[np++] = (win.y + qy) * w + win.x + qx;
        if (qx < minX) minX = qx;
        if (qx > maxX) maxX = qx;
        if (qy < minY) minY = qy;
        if (qy > maxY) maxY = qy;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const nx = qx + dx,
              ny = qy + dy;
            if (nx < 0 || ny < 0 || nx >= ww || ny >= wh) continue;
            const n = ny * ww + nx;
            if (seen[n] || !isInk(data[(win.y + ny) * w + win.x + nx])) continue;
            seen[n] = 1;
            stack[sp++] = n;
          }
      }
      const rect = { x: win.x + minX, y: win.y + minY, width: maxX - minX + 1, height: maxY - minY + 1 };
      // only what may be text keeps its pixels
      comps.push({ rect, pixels: rect.height <= 2000 && np < 200_000 ? buf.slice(0, np) : new Int32Array(0) });
    }
  return comps;
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export function rectDistance(a: Rect, b: Rect): number {
  const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
  const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  return Math.hypot(dx, dy);
}

export function unionRect(a: Rect, b: Rect): Rect {
  const x0 = Math.min(a.x, b.x),
    y0 = Math.min(a.y, b.y);
  const x1 = Math.max(a.x + a.width, b.x + b.width),
    y1 = Math.max(a.y + a.height, b.y + b.height);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Which grey levels are the label's ink: on a uniform strip, box or plate, everything past half-way from the
 * background to the bar's level (anti-aliased and resampled strokes included); bare on a micrograph, only levels
 * within 20 of the bar's own, so that structure of nearly the same tone does not join the glyphs.
 */
function inkTest(img: Gray, bar: BarCandidate): (v: number) => boolean {
  const { width: w, height: h, data } = img;
  const b = bar.rect;
  const lv: number[] = [];
  for (let x = b.x + 2; x < b.x + b.width - 2; x++) lv.push(data[(b.y + (b.height >> 1)) * w + x]);
  const level = median(lv);
  const d = Math.max(3, Math.min(8, b.height));
  const around: number[] = [];
  for (const y of [b.y - d, b.y + b.height - 1 + d]) {
    if (y < 0 || y >= h) continue;
    for (let x = b.x; x < b.x + b.width; x++) around.push(data[y * w + x]);
  }
  const bg = median(around);
  // uniform: nearly all of it within 20 of its median (ticks and divisions aside)
  const uniform = around.filter((v) => Math.abs(v - bg) <= 20).length >= 0.85 * around.length;
  const t = uniform ? bg + 0.3 * (level - bg) : bar.polarity === 'light' ? Math.max(LIGHT, level - 20) : Math.min(DARK, level + 20);
  const tt = bar.polarity === 'light' ? Math.min(t, 254) : Math.max(t, 1);
  return bar.polarity === 'light' ? (v) => v >= tt : (v) => v <= tt;
}

/**
 * The plate, box or strip the bar sits on, within the window: the solid area of the background's tone that
 * touches the bar (flood fill). The label is looked for on it only, so that the micrograph beside a plate is not
 * read as text. Null for a bar bare on the micrograph (no solid backing).
 */
function backing(img: Gray, bar: BarCandidate, win: Rect): Rect | null {
  const { width: w, data } = img;
  const b = bar.rect;
  const sx = b.x + (b.width >> 1);
  const seeds = [b.y - 3, b.y + b.height + 2].filter((y) => y >= win.y && y < win.y + win.height);
  const around: number[] = [];
  for (const y of seeds) for (let x = b.x; x < b.x + b.width; x += 2) around.push(data[y * w + x]);
  if (!around.length) return null;
  const bg = median(around);
  if (Math.abs(bg - median([data[(b.y + (b.height >> 1)) * w + sx]])) < 60) return null;
  const ww = win.width,
    wh = win.height;
  const seen = new Uint8Array(ww * wh);
  const stack = new Int32Array(ww * wh);
  let sp = 0,
    n = 0,
    minX = Infinity,
    maxX = -1,
    minY = Infinity,
    maxY = -1;
  for (const y of seeds) {
    const k = (y - win.y) * ww + sx - win.x;
    if (Math.abs(data[y * w + sx] - bg) <= 25 && !seen[k]) {
      seen[k] = 1;
      stack[sp++] = k;
    }
  }
  let flat = 0;
  while (sp > 0) {
    const q = stack[--sp];
    const qx = q % ww,
      qy = (q - qx) / ww;
    n++;
    if (Math.abs(data[(win.y + qy) * w + win.x + qx] - bg) <= 6) flat++;
    if (qx < minX) minX = qx;
    if (qx > maxX) maxX = qx;
    if (qy < minY) minY = qy;
    if (qy > maxY) maxY = qy;
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ]) {
      const nx = qx + dx,
        ny = qy + dy;
      if (nx < 0 || ny < 0 || nx >= ww || ny >= wh) continue;
      const k = ny * ww + nx;
      if (seen[k] || Math.abs(data[(win.y + ny) * w + win.x + nx] - bg) > 25) continue;
      seen[k] = 1;
      stack[sp++] = k;
    }
  }
  if (maxX < 0) return null;
  const area = (maxX - minX + 1) * (maxY - minY + 1);
  // solid (a plate or strip holds text and the bar, but is mostly background), and larger than the bar
  // flat (drawn or printed, not a grain's noisy tone) and around the bar on every side
  const surrounds = win.x + minX < b.x - 1 && win.x + maxX > b.x + b.width && win.y + minY < b.y - 1 && win.y + maxY > b.y + b.height;
  if (n < 0.45 * area || flat < 0.9 * n || !surrounds) return null;
  return padRect({ x: win.x + minX, y: win.y + minY, width: maxX - minX + 1, height: maxY - minY + 1 }, 2, img.width, img.height);
}

/** Text lines of the bar's colour around it, nearest first: above, below or beside the bar. */
export function findTextLines(img: Gray, bar: BarCandidate, ink?: (v: number) => boolean): TextLine[] {
  const { width: W, height: H } = img;
  const b = bar.rect,
    len = b.width;
  const vx = Math.round(Math.max(1.5 * len, 60)),
    vy = Math.round(Math.max(0.6 * len, 60));
  const x0 = Math.max(0, b.x - vx),
    x1 = Math.min(W, b.x + b.width + vx);
  const y0 = Math.max(0, b.y - vy),
    y1 = Math.min(H, b.y + b.height + vy);
  const win = backing(img, bar, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }) ?? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  const comps = components(img, win, ink ?? inkTest(img, bar));
  const maxGlyph = Math.max(12, 0.7 * len);
  const glyphs: Comp[] = [];
  const small: Comp[] = [];
  for (const c of comps) {
    if (overlaps(c.rect, b)) continue; // the bar with its ticks
    const { width: cw, height: ch } = c.rect;
    if (ch >= 5 && ch <= maxGlyph && cw <= 3 * ch && c.pixels.length >= 0.08 * cw * ch) glyphs.push(c);
    else if (ch < 5 || (cw <= 3 * ch && ch <= maxGlyph)) small.push(c);
  }
  glyphs.sort((p, q) => p.rect.x - q.rect.x);
  // union glyphs into lines: overlapping vertically, a word space or less apart
  const parent = glyphs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < glyphs.length; i++)
    for (let j = i + 1; j < glyphs.length; j++) {
      const a = glyphs[i].rect,
        c = glyphs[j].rect;
      const gap = c.x - (a.x + a.width);
      const hmax = Math.max(a.height, c.height),
        hmin = Math.min(a.height, c.height);
      if (gap > 0.9 * hmax) break;
      const vo = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
      if (vo >= 0.4 * hmin && hmax <= 1.8 * hmin) parent[find(j)] = find(i);
    }
  const byRoot = new Map<number, Comp[]>();
  glyphs.forEach((g, i) => {
    const r = find(i);
    byRoot.set(r, [...(byRoot.get(r) ?? []), g]);
  });
  const lines: (TextLine & { dist: number })[] = [];
  for (const members of byRoot.values()) {
    let rect = members[0].rect;
    for (const m of members) rect = unionRect(rect, m.rect);
    const lh = median(members.map((m) => m.rect.height));
    if (rect.width > 4 * len + 4 * lh || members.length > 16 || members.length < 2) continue;
    // dots, commas and the µ's tail inside the line's box (a little below the baseline)
    const box = { x: rect.x - lh * 0.3, y: rect.y, width: rect.width + lh * 0.6, height: rect.height + lh * 0.35 };
    const parts = [...members];
    const inLine = new Set(members);
    for (const s of [...small, ...glyphs])
      if (
        !inLine.has(s) &&
        s.rect.x >= box.x &&
        s.rect.x + s.rect.width <= box.x + box.width &&
        s.rect.y >= box.y &&
        s.rect.y + s.rect.height <= box.y + box.height
      )
        parts.push(s);
    for (const s of parts) rect = unionRect(rect, s.rect);
    // relation to the bar
    const hOverlap = Math.min(rect.x + rect.width, b.x + b.width) - Math.max(rect.x, b.x);
    const vOverlap = Math.min(rect.y + rect.height, b.y + b.height + lh) - Math.max(rect.y, b.y - lh);
    const dist = rectDistance(rect, b);
    const cx = rect.x + rect.width / 2;
    const aboveBelow = hOverlap > 0 && cx >= b.x - 0.25 * len && cx <= b.x + 1.25 * len && dist <= Math.max(3 * lh, 0.5 * len);
    const beside = hOverlap <= 0 && vOverlap > 0 && dist <= Math.max(3 * lh, 0.3 * len);
    if (!aboveBelow && !beside) continue;
    const pixels = new Int32Array(parts.reduce((n, s) => n + s.pixels.length, 0));
    let k = 0;
    for (const s of parts) for (const q of s.pixels) pixels[k++] = q;
    lines.push({ rect, pixels, glyphs: members.map((m) => m.rect).sort((p, q) => p.x - q.x), dist });
  }
  return lines.sort((p, q) => p.dist - q.dist);
}

/** Does a glyph descend well below the baseline (the µ)? */
export function lineHasDescender(line: TextLine): boolean {
  const g = line.glyphs;
  if (g.length < 2) return false;
  const baseline = median(g.map((r) => r.y + r.height - 1));
  const capH = baseline - Math.min(...g.map((r) => r.y)) + 1;
  return g.some((r) => r.y + r.height - 1 - baseline > 0.18 * capH && r.width > 0.3 * capH);
}

/**
 * n or m for the unit's first letter, which OCR confuses, by the glyphs' widths: n is about 0.6 of m's width,
 * another m the same width. Left as read when the last two glyphs are not two letters of the same height, or the last is
 * narrower than an m (a letter broken in pieces).
 */
export function unitByGlyphs(line: TextLine, unit: ParsedLabel['unit']): ParsedLabel['unit'] {
  const g = line.glyphs;
  if ((unit !== 'nm' && unit !== 'mm') || g.length < 3) return unit;
  const m = g[g.length - 1],
    p = g[g.length - 2];
  if (m.width > 2 * m.height || Math.abs(p.height / m.height - 1) > 0.15 || Math.abs(p.y + p.height - (m.y + m.height)) > 0.15 * m.height)
    return unit;
  // an m is wider than it is high (and an n nearly as wide as high): a narrower last glyph is a letter broken in
  // pieces or structure beside it, whose widths say nothing
  if (m.width < 0.8 * m.height || p.width < 0.4 * p.height) return unit;
  const ratio = p.width / m.width;
  return ratio < 0.78 ? 'nm' : ratio > 0.88 ? 'mm' : unit;
}

/** The line's pixels as dark text on white, scaled to about 48 px high, for OCR. */
export async function linePng(img: Gray, line: TextLine): Promise<Buffer> {
  const r = line.rect;
  const pad = Math.max(4, Math.round(r.height * 0.4));
  const cw = r.width + 2 * pad,
    ch = r.height + 2 * pad;
  const crop = new Uint8Array(cw * ch).fill(255);
  for (const q of line.pixels) {
    const x = (q % img.width) - r.x + pad,
      y = Math.floor(q / img.width) - r.y + pad;
    crop[y * cw + x] = 0;
  }
  const scale = Math.max(0.5, Math.min(4, 48 / r.height));
  return sharp(Buffer.from(crop), { raw: { width: cw, height: ch, channels: 1 } })
    .resize(Math.max(8, Math.round(cw * scale)), Math.max(8, Math.round(ch * scale)), { kernel: 'cubic' })
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
    .png()
    .toBuffer();
}

/**
 * A label belongs to the bar nearest to it (of the same polarity, at least half as wide as the bar it was found
 * beside, not under the label itself): `bar` unless another candidate is more than 1 px nearer.
 */
function nearestBar(img: Gray, bar: BarCandidate, cands: readonly BarCandidate[], label: Rect): BarCandidate {
  let owner = bar;
  for (const c of cands)
    if (
      c.polarity === bar.polarity &&
      !overlaps(c.rect, padRect(label, 2, img.width, img.height)) &&
      c.rect.width >= 0.5 * bar.rect.width &&
      rectDistance(c.rect, label) < rectDistance(owner.rect, label) - 1
    )
      owner = c;
  return owner;
}

/**
 * The region around a bar and its label to leave out of the analysis: a full-width data strip at the top or
 * bottom, else the box or plate of the other class around them, else the two with a margin.
 */
export function barRegion(img: Gray, bar: BarCandidate, label: Rect): { region: Rect; strip: 'top' | 'bottom' | null } {
  const { width: w, height: h, data } = img;
  const both = unionRect(bar.rect, label);
  const bg: Polarity = bar.polarity === 'light' ? 'dark' : 'light';
  // strip: rows from the bar to an image edge that are mostly background class with few mid-tones
  const stripRow = (y: number) => {
    let b = 0,
      mid = 0,
      n = 0;
    const step = Math.max(1, Math.floor(w / 1500));
    for (let x = 0; x < w; x += step, n++) {
      const v = data[y * w + x];
      if (inClass(v, bg)) b++;
      else if (!inClass(v, bar.polarity)) mid++;
    }
    return b / n >= 0.6 && mid / n < 0.12;
  };
  for (const dir of [1, -1] as const) {
    let y = dir > 0 ? both.y + both.height : both.y - 1;
    let ok = true;
    while (y >= 0 && y < h) {
      if (!stripRow(y)) {
        ok = false;
        break;
      }
      y += dir;
    }
    if (!ok) continue;
    // the other way: up to the first row that is no longer strip-like
    let e = dir > 0 ? both.y - 1 : both.y + both.height;
    while (e >= 0 && e < h && stripRow(e)) e -= dir;
    let start = dir > 0 ? e + 1 : 0,
      end = dir > 0 ? h : e;
    // a separator line of the bar's colour between micrograph and strip belongs to the strip
    const inkRow = (y: number) => {
      let k = 0;
      for (let x = 0; x < w; x += 4) if (inClass(data[y * w + x], bar.polarity)) k++;
      return k >= 0.8 * Math.ceil(w / 4);
    };
    for (let i = 0; i < 6 && dir > 0 && start > 0 && inkRow(start - 1); i++) start--;
    for (let i = 0; i < 6 && dir < 0 && end < h && inkRow(end); i++) end++;
    if (end - start > 0.45 * h) continue;
    return { region: { x: 0, y: start, width: w, height: end - start }, strip: dir > 0 ? 'bottom' : 'top' };
  }
  // box or plate: flood fill of the background class from just outside the bar, bounded
  const margin = Math.round(Math.max(both.height, 0.5 * bar.rect.width));
  const win = {
    x0: Math.max(0, both.x - margin),
    x1: Math.min(w - 1, both.x + both.width + margin),
    y0: Math.max(0, both.y - margin),
    y1: Math.min(h - 1, both.y + both.height + margin),
  };
  const sx = bar.rect.x + (bar.rect.width >> 1);
  let sy = bar.rect.y + bar.rect.height;
  while (sy <= win.y1 && !inClass(data[sy * w + sx], bg)) sy++;
  if (sy <= win.y1 && sy - (bar.rect.y + bar.rect.height) < 6) {
    const { minX, maxX, minY, maxY, touches } = floodBox(data, w, h, win, sx, sy, (v) => inClass(v, bg));
    const box = { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
    if (!touches && box.width >= both.width && box.height >= both.height) return { region: padRect(unionRect(box, both), 3, w, h), strip: null };
  }
  return { region: padRect(both, Math.max(4, Math.round(bar.rect.height)), w, h), strip: null };
}

export function padRect(r: Rect, p: number, w: number, h: number): Rect {
  const x0 = Math.max(0, r.x - p),
    y0 = Math.max(0, r.y - p);
  const x1 = Math.min(w, r.x + r.width + p),
    y1 = Math.min(h, r.y + r.height + p);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export interface GeneralOutcome {
  result: GeneralResult | null;
  /** A bar with a text line beside it whose text did not read as a length. */
  unreadable: { bar: BarCandidate; text: string } | null;
}

/** Finds bars, reads the text line nearest to each, and keeps the first that reads as a length. */
export async function detectGeneral(img: Gray, ocr: (png: Buffer) => Promise<string>, maxOcr = 6): Promise<GeneralOutcome> {
  const cands = findBarCandidates(img).sort((a, b) => b.rect.width - a.rect.width);
  let unreadable: GeneralOutcome['unreadable'] = null;
  let calls = 0;
  const tried = new Set<string>();
  for (const bar of cands.slice(0, 12)) {
    const lines = findTextLines(img, bar).slice(0, 2);
    for (const line of lines) {
      const key = `${line.rect.x},${line.rect.y},${line.rect.width},${line.rect.height}`;
      if (tried.has(key) || calls >= maxOcr) continue;
      tried.add(key);
      calls++;
      const text = await ocr(await linePng(img, line));
      const parsed = parseLabelText(text, lineHasDescender(line));
      if (parsed) parsed.unit = unitByGlyphs(line, parsed.unit);
      if (!parsed) {
        unreadable ??= { bar, text };
        continue;
      }
      const owner = nearestBar(img, bar, cands, line.rect);
      const { region, strip } = barRegion(img, owner, line.rect);
      return { result: { bar: owner, label: line, parsed, text, region, strip }, unreadable: null };
    }
  }
  return { result: null, unreadable };
}

/**
 * The second look for a bar bare on the micrograph (20261201 and later, when the searches before found nothing
 * readable): the bar's class taken tighter than the overlay search's, so that a black bar on a dark phase (a white
 * bar on a bright one) stands apart, required to stand out from the rows beside it by local contrast (at least 25
 * grey levels and 3 times their pixel noise) rather than by a fixed 60; the label's ink taken half-way from the
 * bar's level to the darkest (brightest) structure around it, and a line that does not read from its pixels read
 * again from its grey levels.
 */
export const BARE_CLASSES: BarClasses[] = [
  { light: LIGHT, dark: DARK, minContrast: 25, noiseFactor: 3 },
  { light: 235, dark: 22, minContrast: 25, noiseFactor: 3 },
  { light: 248, dark: 8, minContrast: 25, noiseFactor: 3 },
];

export function findBareCandidates(img: Gray): BarCandidate[] {
  const out: BarCandidate[] = [];
  for (const cls of BARE_CLASSES)
    for (const c of findBarCandidates(img, undefined, cls)) if (!out.some((o) => o.polarity === c.polarity && overlaps(o.rect, c.rect))) out.push(c);
  return out;
}

/** The bar's own level (median of its middle row). */
function barLevel(img: Gray, b: Rect): number {
  const lv: number[] = [];
  for (let x = b.x + 2; x < b.x + b.width - 2; x++) lv.push(img.data[(b.y + (b.height >> 1)) * img.width + x]);
  return median(lv);
}

/**
 * Ink of a bare label: past half-way from the bar's level to the most extreme structure of the micrograph around
 * it (the 2nd percentile for a dark bar, the 98th for a light one, the bar's own rows left out), so that a dark
 * phase or pore beside a black label does not join its glyphs; at least 6 and at most 60 levels from the bar's.
 */
export function bareInk(img: Gray, bar: BarCandidate): (v: number) => boolean {
  const { width: W, height: H, data } = img;
  const b = bar.rect,
    len = b.width;
  const level = barLevel(img, b);
  const x0 = Math.max(0, b.x - len),
    x1 = Math.min(W, b.x + 2 * len);
  const y0 = Math.max(0, b.y - Math.round(0.6 * len)),
    y1 = Math.min(H, b.y + b.height + Math.round(0.6 * len));
  const step = Math.max(1, Math.round(Math.sqrt(((x1 - x0) * (y1 - y0)) / 40000)));
  const vals: number[] = [];
  for (let y = y0; y < y1; y += step) {
    if (y >= b.y - 2 && y < b.y + b.height + 2) continue;
    for (let x = x0; x < x1; x += step) vals.push(data[y * W + x]);
  }
  vals.sort((p, q) => p - q);
  const light = bar.polarity === 'light';
  const q = vals.length ? vals[Math.floor((light ? 0.98 : 0.02) * (vals.length - 1))] : light ? 0 : 255;
  const half = Math.max(6, Math.min(60, 0.5 * Math.abs(q - level)));
  return light ? (v) => v >= level - half : (v) => v <= level + half;
}

/** The line's grey levels stretched between the bar's level (black) and the line's background (white), for OCR. */
export async function lineGreyPng(
  img: Gray,
  line: Pick<TextLine, 'rect'>,
  bar: BarCandidate,
  /**
   * a zone rather than a line: the text is a third to a half of its height, and whatever is past this fraction of
   * the way from the ink to the background is white (0 or absent: a line, stretched to its background)
   */
  zone = 0,
): Promise<Buffer> {
  const r = line.rect;
  const { x: x0, y: y0, width: cw, height: ch } = padRect(r, zone ? 2 : Math.max(4, Math.round(r.height * 0.4)), img.width, img.height);
  const vals: number[] = [];
  for (let y = y0; y < y0 + ch; y++) for (let x = x0; x < x0 + cw; x++) vals.push(img.data[y * img.width + x]);
  const bg = median(vals);
  let level = barLevel(img, bar.rect);
  if (zone) {
    // small resampled text does not reach the bar's level: its own most extreme levels are the ink
    const sorted = [...vals].sort((p, q) => p - q);
    const ink = sorted[Math.floor((bar.polarity === 'light' ? 0.995 : 0.005) * (sorted.length - 1))];
    if (Math.abs(ink - bg) > 0.3 * Math.abs(level - bg)) level = ink;
  }
  const span = (zone || 1) * (bg - level) || 1;
  const crop = new Uint8Array(cw * ch);
  for (let i = 0; i < vals.length; i++) crop[i] = Math.max(0, Math.min(255, Math.round((255 * (vals[i] - level)) / span)));
  const scale = Math.max(0.5, Math.min(6, (zone ? 120 : 48) / r.height));
  return sharp(Buffer.from(crop), { raw: { width: cw, height: ch, channels: 1 } })
    .resize(Math.max(8, Math.round(cw * scale)), Math.max(8, Math.round(ch * scale)), { kernel: 'cubic' })
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
    .png()
    .toBuffer();
}

/**
 * Where a bare bar's label is, when no text line stands out of the micrograph (small text, little contrast): the
 * bands above and below the bar as wide as it, and the bands beside it, each a third of the bar's length high.
 */
export function labelZones(img: Gray, bar: BarCandidate): Rect[] {
  const b = bar.rect,
    len = b.width;
  const zh = Math.max(12, Math.round(0.3 * len));
  const gap = Math.max(1, Math.round(0.02 * len));
  const cy = b.y + (b.height >> 1);
  const zones = [
    { x: b.x - Math.round(0.15 * len), y: b.y - gap - zh, width: Math.round(1.3 * len), height: zh },
    { x: b.x - Math.round(0.15 * len), y: b.y + b.height + gap, width: Math.round(1.3 * len), height: zh },
    { x: b.x + len + gap, y: cy - (zh >> 1), width: Math.round(0.9 * len), height: zh },
    { x: b.x - gap - Math.round(0.9 * len), y: cy - (zh >> 1), width: Math.round(0.9 * len), height: zh },
  ];
  return zones.map((z) => padRect(z, 0, img.width, img.height)).filter((z) => z.width >= 0.5 * len && z.height >= 0.6 * zh);
}

/** The bare search: bars by local contrast, the label nearest to each, read from its pixels or else its grey levels. */
export async function detectBare(img: Gray, ocr: (png: Buffer) => Promise<string>, maxOcr = 16): Promise<GeneralOutcome> {
  const cands = findBareCandidates(img).sort((a, b) => b.rect.width - a.rect.width);
  let unreadable: GeneralOutcome['unreadable'] = null;
  let calls = 0;
  const tried = new Set<string>();
  for (const bar of cands.slice(0, 12)) {
    const all = findTextLines(img, bar, bareInk(img, bar));
    // a label has a number and a unit: lines of three glyphs or more before pairs of specks
    const lines = [...all.filter((l) => l.glyphs.length >= 3), ...all.filter((l) => l.glyphs.length < 3)].slice(0, 2);
    for (const line of lines) {
      const key = `${line.rect.x},${line.rect.y},${line.rect.width},${line.rect.height}`;
      if (tried.has(key) || calls >= maxOcr) continue;
      tried.add(key);
      let parsed: ParsedLabel | null = null;
      let text = '';
      for (const render of [() => linePng(img, line), () => lineGreyPng(img, line, bar)]) {
        if (calls >= maxOcr) break;
        calls++;
        text = await ocr(await render());
        parsed = parseLabelText(text, lineHasDescender(line));
        if (parsed) break;
      }
      if (!parsed) {
        unreadable ??= { bar, text };
        continue;
      }
      parsed.unit = unitByGlyphs(line, parsed.unit);
      const owner = nearestBar(img, bar, cands, line.rect);
      const { region, strip } = barRegion(img, owner, line.rect);
      return { result: { bar: owner, label: line, parsed, text, region, strip }, unreadable: null };
    }
    // no line read: the bands where a label goes, read from their grey levels (nearest first: above, below, beside),
    // first the rows of a line found there (part of the label, the rest lost in the structure around it), then the
    // whole band; at two contrasts (structure of nearly the ink's tone crossing small text spoils one or the other)
    const zones = labelZones(img, bar);
    const rows: Rect[] = [];
    for (const line of lines) {
      const l = line.rect,
        cx = l.x + l.width / 2,
        cy = l.y + l.height / 2;
      const z = zones.find((z) => cx >= z.x && cx < z.x + z.width && cy >= z.y && cy < z.y + z.height);
      if (!z || l.height >= 0.8 * z.height) continue;
      const y0 = Math.max(z.y, l.y - l.height),
        y1 = Math.min(z.y + z.height, l.y + 2 * l.height);
      rows.push({ x: z.x, y: y0, width: z.width, height: y1 - y0 });
    }
    for (const z of [...rows, ...zones])
      for (const contrast of [0.6, 0.3]) {
        if (calls >= maxOcr) break;
        calls++;
        const text = await ocr(await lineGreyPng(img, { rect: z }, bar, contrast));
        const parsed = parseLabelText(text);
        if (!parsed) continue;
        const line: TextLine = { rect: z, pixels: new Int32Array(0), glyphs: [] };
        const { region, strip } = barRegion(img, bar, z);
        return { result: { bar, label: line, parsed, text, region, strip }, unreadable: null };
      }
  }
  return { result: null, unreadable };
}
