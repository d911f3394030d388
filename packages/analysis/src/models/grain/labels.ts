// Grain label images: the segmentation type and the label clean-ups shared by every grain-size version.
import { components } from '../../cvops.js';

export interface GrainSegmentation {
  labels: Int32Array;
  count: number;
  boundary: Uint8Array;
}

/** A segmentation from its labels (> 0 grains): every other pixel is boundary. */
export function fromLabels(labels: Int32Array, count: number): GrainSegmentation {
  const boundary = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) boundary[i] = labels[i] > 0 ? 0 : 1;
  return { labels, count, boundary };
}

/** Grains within this many px of the field's edge or the excluded area count ½ (Jeffries), masks included from 20261125. */
export const BORDER_MARGIN = 2;

/** Keeps the largest 4-connected piece of each label; the other pieces become 0 (and boundary, when given). */
export function keepLargestPieces(labels: Int32Array, w: number, h: number, count: number, boundary?: Uint8Array): void {
  const N = w * h;
  const piece = new Int32Array(N);
  const stack = new Int32Array(N);
  const size: number[] = [0];
  const best = new Int32Array(count + 2);
  let n = 0;
  for (let s = 0; s < N; s++) {
    const l = labels[s];
    if (l <= 0 || piece[s]) continue;
    n++;
    let top = 0,
      area = 0;
    stack[top++] = s;
    piece[s] = n;
    while (top) {
      const i = stack[--top];
      area++;
      const x = i % w;
      let j = i - 1;
      if (x > 0 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i + 1;
      if (x < w - 1 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i - w;
      if (j >= 0 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i + w;
      if (j < N && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
    }
    size.push(area);
    if (l < best.length && (!best[l] || area > size[best[l]])) best[l] = n;
  }
  for (let i = 0; i < N; i++) {
    const l = labels[i];
    if (l > 0 && l < best.length && piece[i] !== best[l]) {
      labels[i] = 0;
      if (boundary) boundary[i] = 1;
    }
  }
}

/**
 * 1 on the grain pixels (F > 0) none of whose 4 neighbours in index order (i ± 1, i ± w; ±1 runs on across a row's
 * end, as it always has) belongs to another grain: the grains of segmentation.png, kept apart by a 1-px line.
 */
export function grainInteriors(F: Int32Array, w: number): Uint8Array {
  const N = F.length;
  const out = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const l = F[i];
    if (l <= 0) continue;
    let a = i - 1 < 0 || F[i - 1] <= 0 || F[i - 1] === l;
    a &&= i + 1 >= N || F[i + 1] <= 0 || F[i + 1] === l;
    a &&= i - w < 0 || F[i - w] <= 0 || F[i - w] === l;
    a &&= i + w >= N || F[i + w] <= 0 || F[i + w] === l;
    if (a) out[i] = 1;
  }
  return out;
}

/**
 * One 4-connected piece per grain in segmentation.png (20261125): where a grain's pixels fall apart into several
 * pieces (a neck one pixel wide cut by the rule that grains stay apart, or labels brought back from the working
 * resolution), only its largest piece is written, so a re-run with the file counts each grain once.
 */
export function onePiecePerGrain(F: Int32Array, w: number, h: number, count: number, inFile: (i: number) => boolean): Uint8Array {
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) if (inFile(i)) mask[i] = 255;
  const cc = components(mask, w, h, 4);
  const grainOf = new Int32Array(cc.count + 1);
  for (let i = 0; i < mask.length; i++) if (cc.labels[i]) grainOf[cc.labels[i]] = F[i];
  const best = new Int32Array(count + 2);
  for (let c = 1; c <= cc.count; c++) {
    const g = grainOf[c];
    if (g > 0 && g < best.length && (!best[g] || cc.area[c] > cc.area[best[g]])) best[g] = c;
  }
  const keep = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) {
    const c = cc.labels[i];
    if (c && best[grainOf[c]] === c) keep[i] = 1;
  }
  return keep;
}

/**
 * The colour path's grains are merged watershed regions whose dividing lines (label 0) still run inside them: for
 * the file, an unlabelled pixel whose labelled 4-neighbours all belong to one grain becomes that grain's (twice, for
 * lines widened by bringing labels back to full size), so a merged grain is one piece in segmentation.png. Lines
 * between two grains are claimed by both sides; the rule that grains stay apart parts them again.
 */
export function fillMergedLines(L: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  let cur = L;
  for (let pass = 0; pass < 2; pass++) {
    const next = new Int32Array(cur);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (cur[i] > 0 || !valid[i]) continue;
        let g = 0,
          one = true;
        if (x > 0 && cur[i - 1] > 0) g = cur[i - 1];
        for (const j of [x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
          const l = j >= 0 ? cur[j] : 0;
          if (l <= 0) continue;
          if (g && l !== g) one = false;
          g = l;
        }
        if (g && one) next[i] = g;
      }
    cur = next;
  }
  return cur;
}

/**
 * The labels with each unlabelled pixel within BORDER_MARGIN px of the field's edge given the label of the first grain
 * pixel inward along the perpendicular to the nearest edge (up to BORDER_MARGIN + 1 px in). A boundary line meeting
 * the edge stays a line (its pixels inward are unlabelled too).
 */
export function fillToEdge(L: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  const src = new Int32Array(L);
  const m = BORDER_MARGIN;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (L[i] > 0 || !valid[i]) continue;
      const dl = x,
        dr = w - 1 - x,
        dt = y,
        db = h - 1 - y;
      const d = Math.min(dl, dr, dt, db);
      if (d >= m) continue;
      const [sx, sy] = d === dl ? [1, 0] : d === dr ? [-1, 0] : d === dt ? [0, 1] : [0, -1];
      for (let k = 1; k <= m + 1 - d; k++) {
        const xx = x + k * sx,
          yy = y + k * sy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) break;
        const j = yy * w + xx;
        if (L[j] > 0) {
          src[i] = L[j];
          break;
        }
      }
    }
  return src;
}
