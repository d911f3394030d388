// Grain size 20261126–: lamellar structures (pearlite colonies, bainite) recognised, 20261127 their colonies measured.
import { resize } from '../../cvops.js';
import { sampleMask, type Gray } from '../../image.js';
import { structureTensor, type Colonies } from '../colonies.js';
import { type Context, fmt, tr } from '../common.js';
import { boundaryResponse } from './lines.js';

/**
 * 20261126: a lamellar structure (pearlite colonies, bainite) is not a grain structure: the model's "grains" are
 * then bounded by lamellae (strips between them, or pieces of colonies), and its G is no E112 grain size. A warning
 * says so, with the share of parallel lamellae and the mean random line spacing along the test lines (the true
 * spacing of randomly oriented colonies is about 2/π of it), and asks for the colony or prior-austenite boundaries
 * to be drawn as a mask (a mask is measured as drawn, and not checked again).
 */
export function lamellarItem(ctx: Context, L: Lamellarity, colonies: Colonies | null): void {
  const { lang, pixelSizeUm: px } = ctx;
  const pct = fmt(100 * L.coherentFraction, 0);
  const sp = fmt(L.spacingPx * px, 2);
  if (colonies) {
    // 20261127: the colonies are measured
    const share = fmt(100 * colonies.lamellarShare, 0);
    ctx.items.push({
      type: 'message',
      status: 'info',
      title: tr(lang, { en: 'Lamellar structure: G of the colonies', de: 'Lamellares Gefüge: G der Kolonien' }),
      content: tr(lang, {
        en: `${pct} % of the structure consists of parallel lamellae (e.g. pearlite colonies or bainite), mean random line spacing ${sp} µm. ${colonies.colonies} colonies (regions where the lamellae run one way, bounded where their direction changes by about 10° or more) cover ${share} % of the area; they are counted as grains, together with the grains without lamellae. G is therefore a colony size, not the prior-austenite grain size: to measure that, draw its boundaries in the mask editor.`,
        de: `${pct} % des Gefüges bestehen aus parallelen Lamellen (z. B. Perlitkolonien oder Bainit), mittlerer Linienabstand auf den Messlinien ${sp} µm. ${colonies.colonies} Kolonien (Bereiche gleicher Lamellenrichtung, begrenzt wo sich die Richtung um etwa 10° oder mehr ändert) bedecken ${share} % der Fläche; sie werden zusammen mit den Körnern ohne Lamellen als Körner gezählt. G ist daher eine Koloniegröße, nicht die ehemalige Austenitkorngröße: um diese zu messen, zeichnen Sie deren Grenzen im Maskeneditor.`,
      }),
    });
    return;
  }
  ctx.items.push({
    type: 'message',
    status: 'warning',
    title: tr(lang, { en: 'Lamellar structure: G is not a grain size', de: 'Lamellares Gefüge: G ist keine Korngröße' }),
    content: tr(lang, {
      en: `${pct} % of the structure consists of parallel lamellae (e.g. pearlite colonies or bainite), mean random line spacing ${sp} µm. The grains counted here are bounded by lamellae, not by grain or colony boundaries, so G is not an ASTM E112 grain size. To measure the colony or prior-austenite grain size, draw its boundaries in the mask editor.`,
      de: `${pct} % des Gefüges bestehen aus parallelen Lamellen (z. B. Perlitkolonien oder Bainit), mittlerer Linienabstand auf den Messlinien ${sp} µm. Die hier gezählten Körner werden von Lamellen begrenzt, nicht von Korn- oder Koloniegrenzen, daher ist G keine Korngröße nach ASTM E112. Um die Kolonie- oder ehemalige Austenitkorngröße zu messen, zeichnen Sie deren Grenzen im Maskeneditor.`,
    }),
  });
}

/**
 * 20261127: the mean of the gaps between lines (sorted ascending) up to 3 × their median: the mean random spacing
 * of the lamellae (E112-like 1 / N_L over the colonies), the long gaps across ferrite grains left out.
 */
export function lamellarGap(sorted: number[]): number {
  const cut = 3 * sorted[sorted.length >> 1];
  let sum = 0,
    n = 0;
  for (const g of sorted) {
    if (g > cut) break;
    sum += g;
    n++;
  }
  return sum / n;
}

/** What lamellarity() measured: see there. */
export interface Lamellarity {
  /** Share of the structure (gradient energy) whose orientation is coherent over a few line spacings, 0..1. */
  coherentFraction: number;
  /** Mean spacing of the dark (or bright) lines along horizontal and vertical test lines, px of the full image. */
  spacingPx: number;
  /** The spacing the window is set by (20261127: the median gap between lines), px of the full image. */
  windowPx: number;
}

/** Pixels lamellarity() works on at most. */
export const LAMELLAR_PIXELS = 1_000_000;

/** A structure is lamellar when more than this share of it is coherent (parallel lines) over a few spacings. */
export const LAMELLAR_FRACTION = 0.35;

/** Coherence (0 isotropic … 1 parallel lines) above which a neighbourhood counts as parallel lines. */
export const COHERENT = 0.7;

/**
 * 20261126: whether the structure is lamellar (pearlite colonies, bainite or martensite packets: parallel lines
 * of one orientation over many line spacings) rather than grains. The line spacing s is measured first (mean
 * run between the thin-line mask's pixels along rows and columns, plus the line width); the gradient structure
 * tensor is then averaged over a Gaussian window of σ = 1.5 s, and its coherence ((λ1 − λ2) / (λ1 + λ2)) is read
 * where the structure is (weighted by the gradient energy). Between equiaxed grains a window of that size holds
 * boundaries of several orientations (coherence well under COHERENT); inside a colony it holds several parallel
 * lamellae (coherence near 1). Scale-free: the window follows the measured spacing.
 */
export async function lamellarity(img: Gray, valid: Uint8Array, version: string): Promise<Lamellarity> {
  const { width: W, height: H } = img;
  const f = Math.max(1, Math.sqrt((W * H) / LAMELLAR_PIXELS));
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  const g = f > 1 ? resize(img, w, h) : img;
  const v = sampleMask(valid, W, H, w, h);
  const { resp, t } = await boundaryResponse(g, v, version, 11);
  // spacing: mean distance between line centres along every 4th row and column = (non-line + line px) / runs;
  // 20261127: the spacing is the mean distance from one line's start to the next up to 3 × the median
  // (lamellarGap) and the window follows the median, so that the flat ferrite beside pearlite colonies (few lines
  // over many px) does not widen the window beyond the colonies
  let px = 0,
    runs = 0;
  const gaps: number[] = [];
  const walk = (start: number, step: number, n: number) => {
    let inLine = false,
      last = -1;
    for (let k = 0; k < n; k++) {
      const i = start + k * step;
      if (!v[i]) {
        inLine = false;
        last = -1;
        continue;
      }
      const on = resp.data[i] > t;
      if (on && !inLine) {
        runs++;
        if (last >= 0) gaps.push(k - last);
        last = k;
      }
      inLine = on;
      px++;
    }
  };
  for (let y = 2; y < h; y += 4) walk(y * w, 1, w);
  for (let x = 2; x < w; x += 4) walk(x, w, h);
  if (runs < 8) return { coherentFraction: 0, spacingPx: NaN, windowPx: NaN };
  const late = version >= '20261127' && gaps.length >= 8;
  if (late) gaps.sort((x, y) => x - y);
  const spacing = late ? lamellarGap(gaps) : px / runs;
  // the window's unit: 20261127 the median gap (the lamellae's, wherever most lines are)
  const s = late ? gaps[gaps.length >> 1] : spacing;
  // the window (σ = 1.5 s) is wide: the tensor is averaged down by r ≈ s / 3 first (area), then blurred by σ / r
  const r = Math.max(1, Math.floor(s / 3));
  const { A, B, D, rw, rh } = structureTensor(g, r, (1.5 * s) / r);
  let energy = 0,
    coherent = 0;
  for (let i = 0; i < rw * rh; i++) {
    if (!v[Math.min(h - 1, Math.floor(((Math.floor(i / rw) + 0.5) * h) / rh)) * w + Math.min(w - 1, Math.floor((((i % rw) + 0.5) * w) / rw))])
      continue;
    const tr = A[i] + D[i];
    if (tr <= 0) continue;
    const coh = Math.sqrt((A[i] - D[i]) ** 2 + 4 * B[i] * B[i]) / tr;
    energy += tr;
    if (coh > COHERENT) coherent += tr;
  }
  return { coherentFraction: energy > 0 ? coherent / energy : 0, spacingPx: spacing * f, windowPx: s * f };
}
