// A recipe's layer edges (issue 22, "why recipe thicknesses read high"): the forest's large-σ features give the
// layer class to pixels it is unsure of 10–70 px beyond the interface — pores of the top coat resting on the oxide,
// halos round dark particles. Such an undecided pixel (layer vote below `vote`) keeps the layer class only when its
// grey (lightly smoothed) lies within the grey range of the confident layer pixels of its column band (their
// `quantile`..1 − `quantile` range); otherwise it goes to the other classes. A pore resting on the layer is darker
// than any of the layer's confident pixels, so it no longer pulls the edge out; a confident layer pixel is never
// changed, nor an undecided one of the layer's own grey.
import type { Gray } from '../image.js';
import { gaussian } from './features.js';

export const RECIPE_EDGE = {
  /**
   * The layer-thickness model version from which a recipe's undecided layer pixels are settled by their grey; null:
   * no version (not shipped: on the EBC cross-validation it helps recipes from the image's own strokes, 8.95 → 7.08 %
   * mean |error|, but not recipes from other images' strokes, 20.7 → 23.5 %; ARCHITECTURE, issue 22).
   */
  from: null as string | null,
  /** A layer pixel whose forest vote (Segmentation.confidence, 0..1) is below this is undecided. */
  vote: 0.78,
  /** The confident layer pixels' grey range: from this quantile to 1 − this quantile. */
  quantile: 0.05,
  /** Width of the column bands (px); each band's grey range is read over the band and half a band either side. */
  bandColumns: 64,
  /** Fewer confident layer pixels than this in a band's window: the range of all confident layer pixels. */
  minPixels: 50,
  /** Gaussian σ (px) of the grey compared. */
  sigma: 2,
};

/**
 * The layer mask of a recipe's segmentation (1 where `labels` is `layer` and the pixel is kept) with undecided
 * layer pixels outside the confident layer's local grey range removed. `confidence` is the vote of each pixel's
 * class, 0..255 (Segmentation.confidence); `valid` limits the pixels read and kept.
 */
export function settleLayerPixels(
  img: Gray,
  labels: Uint8Array,
  confidence: Uint8Array,
  layer: number,
  valid: Uint8Array,
  o: Omit<typeof RECIPE_EDGE, 'from'> = RECIPE_EDGE,
): Uint8Array {
  const { width: w, height: h } = img;
  const n = w * h;
  const grey = gaussian({ width: w, height: h, data: Float32Array.from(img.data) }, o.sigma).data;
  const minVote = Math.round(o.vote * 255);
  const out = new Uint8Array(n);
  const confident = new Uint8Array(n);
  let undecided = 0;
  for (let i = 0; i < n; i++) {
    if (!valid[i] || labels[i] !== layer) continue;
    out[i] = 1;
    if (confidence[i] >= minVote) confident[i] = 1;
    else undecided++;
  }
  if (!undecided) return out;
  const bin = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  // each column's histogram of confident layer greys, summed over the band's window
  const colHist = new Uint32Array(w * 256);
  const all = new Float64Array(256);
  for (let y = 0, i = 0; y < h; y++)
    for (let x = 0; x < w; x++, i++)
      if (confident[i]) {
        const b = bin(grey[i]);
        colHist[x * 256 + b]++;
        all[b]++;
      }
  const range = (hist: ArrayLike<number>): [number, number] | null => {
    let total = 0;
    for (let b = 0; b < 256; b++) total += hist[b];
    if (total < o.minPixels) return null;
    let lo = 0,
      hi = 255,
      acc = 0;
    for (let b = 0; b < 256; b++) {
      acc += hist[b];
      if (acc > o.quantile * total) {
        lo = b;
        break;
      }
    }
    acc = 0;
    for (let b = 255; b >= 0; b--) {
      acc += hist[b];
      if (acc > o.quantile * total) {
        hi = b;
        break;
      }
    }
    return [lo, hi];
  };
  const global = range(all);
  if (!global) return out;
  const bw = Math.max(1, o.bandColumns);
  const hist = new Float64Array(256);
  for (let x0 = 0; x0 < w; x0 += bw) {
    hist.fill(0);
    for (let x = Math.max(0, x0 - (bw >> 1)); x < Math.min(w, x0 + bw + (bw >> 1)); x++)
      for (let b = 0; b < 256; b++) hist[b] += colHist[x * 256 + b];
    const [lo, hi] = range(hist) ?? global;
    for (let y = 0; y < h; y++)
      for (let x = x0; x < Math.min(w, x0 + bw); x++) {
        const i = y * w + x;
        if (out[i] && !confident[i] && (grey[i] < lo - 0.5 || grey[i] > hi + 0.5)) out[i] = 0;
      }
  }
  return out;
}
