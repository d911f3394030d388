// Grain size: the overlays (issue 24 item 4). Drawn on the analysed image's own colours, at the whole image's size
// (the rest hatched grey), so that the viewer's opacity slider fades them into the original; nothing here changes a count.
// - grain-boundaries.png: 1-px boundary lines; grains cut by the field's border (Jeffries ½) tinted; what the count
//   ignores (areas of no grain wider than a boundary band: pores, dropped slivers, unsegmented patches) hatched; the
//   area outside the analysis (data strip, crop) hatched grey.
// - e112-test-lines.png (20261123 and later): every k-th of the intercept's test lines (at least TEST_LINE_GAP px
//   apart: the lines are counted every few px, and all of them drawn tinted the whole image cyan) and each counted
//   intersection on the drawn lines marked by its weight (1, 1½ at a triple point, ½ at a line end) with a plus sized
//   with the image (markRadius: about 0.4 % of the shorter side, so it stays visible shown scaled down). The count
//   itself uses every line.
import { distanceTransform } from '../../cvops.js';
import { encodePng } from '../../image.js';
import { e112Intercept } from '../../measure/e112.js';
import { type Context, rgb255, tr } from '../common.js';
import { blendLut, blendWith, EXCLUDED_COLOUR, EXCLUDED_HATCH, hatchAt, onWholeImage, type RGB } from '../overlayImage.js';
import { type CountedIntercept, junctionEvents, weightedP } from './report.js';

/** Boundary bands (label ≤ 0 between grains) up to twice this width are drawn as a 1-px line; wider areas are ignored area. */
export const BAND_HALF_WIDTH = 5;

/** The test-line image draws lines at least this many px apart (and about 40 across the shorter side at most). */
export const TEST_LINE_GAP = 28;

/**
 * Every how many test lines one is drawn: the drawn lines are at least TEST_LINE_GAP px apart, and at most about 40
 * cross the shorter side of a large image (where 28 px would be a few px on the screen). 1 when every line is.
 */
export function drawnLineStep(spacing: number, w: number, h: number): number {
  const gap = Math.max(TEST_LINE_GAP, Math.min(w, h) / 40);
  return Math.max(1, Math.ceil(gap / spacing));
}

/** Test line j (0, 1, … from the image's edge) is drawn: every `step`-th, the first about half a gap in. */
export const isDrawnLine = (j: number, step: number): boolean => j % step === step >> 1;

export const OVERLAY_COLOURS = {
  border: [255, 176, 0] as RGB,
  ignored: [150, 60, 255] as RGB,
  excluded: EXCLUDED_COLOUR,
  testLine: [0, 200, 255] as RGB,
  hit: [40, 230, 40] as RGB,
  triple: [255, 0, 255] as RGB,
  half: [255, 255, 255] as RGB,
};

export interface GrainOverlayParts {
  /** Each pixel's grain after the thin boundary bands went to the nearest grain (0: no grain). */
  filled: Int32Array;
  /** 1 on the 1-px boundary lines. */
  lines: Uint8Array;
  /** 1 where the count ignores the analysed area (no grain, wider than a boundary band). */
  ignored: Uint8Array;
}

/**
 * The parts of the boundary overlay: thin bands of label ≤ 0 between grains (the watershed lines and boundary
 * bands of the grey path) go to the nearest grain, so the boundary is drawn as one 1-px line where the grain label
 * changes; wider areas of no grain (an opening with a disc of BAND_HALF_WIDTH px) stay apart as ignored.
 */
export function overlayParts(L: Int32Array, w: number, h: number, valid: Uint8Array): GrainOverlayParts {
  const n = w * h;
  const zero = new Uint8Array(n);
  let anyZero = false;
  for (let i = 0; i < n; i++) if (valid[i] && L[i] <= 0) anyZero = !!(zero[i] = 255);
  const ignored = new Uint8Array(n);
  if (anyZero) {
    // opening: erode (distance to a non-zero pixel > R), then dilate back by R inside the zero area
    const d = distanceTransform(zero, w, h);
    const notCore = new Uint8Array(n);
    let anyCore = false;
    for (let i = 0; i < n; i++) {
      const core = zero[i] && d[i] > BAND_HALF_WIDTH;
      notCore[i] = core ? 0 : 255;
      if (core) anyCore = true;
    }
    if (anyCore) {
      const d2 = distanceTransform(notCore, w, h);
      for (let i = 0; i < n; i++) if (zero[i] && d2[i] <= BAND_HALF_WIDTH + 1) ignored[i] = 1;
    }
  }
  // band pixels to the nearest grain: breadth-first from every grain pixel through the band
  const filled = new Int32Array(n);
  if (!anyZero) {
    // a zero-width partition (the learned segmentation): every analysed pixel is a grain's already
    for (let i = 0; i < n; i++) filled[i] = valid[i] && L[i] > 0 ? L[i] : 0;
    return { filled, lines: boundaryLines(filled, w, h, valid, ignored), ignored };
  }
  const queue = new Int32Array(n);
  let head = 0,
    tail = 0;
  for (let i = 0; i < n; i++)
    if (valid[i] && L[i] > 0) {
      filled[i] = L[i];
      queue[tail++] = i;
    }
  // (no closure per pixel: this loop runs over every pixel of the image)
  while (head < tail) {
    const i = queue[head++];
    const y = (i / w) | 0,
      x = i - y * w;
    const v = filled[i];
    for (let k = 0; k < 4; k++) {
      if ((k === 0 && x === 0) || (k === 1 && x + 1 >= w) || (k === 2 && y === 0) || (k === 3 && y + 1 >= h)) continue;
      const j = k === 0 ? i - 1 : k === 1 ? i + 1 : k === 2 ? i - w : i + w;
      if (filled[j] || !zero[j] || ignored[j]) continue;
      filled[j] = v;
      queue[tail++] = j;
    }
  }
  return { filled, lines: boundaryLines(filled, w, h, valid, ignored), ignored };
}

/** 1-px lines: where the grain changes to the right or below, and the outline of the ignored area on the grain side. */
function boundaryLines(filled: Int32Array, w: number, h: number, valid: Uint8Array, ignored: Uint8Array): Uint8Array {
  const lines = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const a = filled[i];
      if (!valid[i] || a <= 0) continue;
      const r = i + 1,
        b = i + w;
      if (
        (x + 1 < w && valid[r] && filled[r] !== a && (filled[r] > 0 || ignored[r] === 1)) ||
        (y + 1 < h && valid[b] && filled[b] !== a && (filled[b] > 0 || ignored[b] === 1)) ||
        (x > 0 && ignored[i - 1]) ||
        (y > 0 && ignored[i - w])
      )
        lines[i] = 1;
    }
  return lines;
}

/**
 * The arm length (px) of the plus marking a counted intersection on a w×h test-line image: about 0.4 % of the shorter
 * side, at least 1 (the 3-px plus of a small image). A 1200-px side gets 5 (an 11-px plus), 3000 px 12: about 5 px
 * when the image is shown 800 px wide, where a fixed plus vanished.
 */
export const markRadius = (w: number, h: number): number => Math.max(1, Math.round(0.004 * Math.min(w, h)));

/** The offsets of a plus of arm length r, its arms 2·⌊r/4⌋ + 1 px thick (1 px up to r = 3). */
export function plusOffsets(r: number): Array<[number, number]> {
  const half = r >> 2;
  const out: Array<[number, number]> = [];
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (Math.abs(dx) <= half || Math.abs(dy) <= half) out.push([dx, dy]);
  return out;
}

/** The violet hatching of what the count ignores: [stripe, between stripes] (the grey one is EXCLUDED_HATCH). */
const IGNORED_HATCH = [blendLut(OVERLAY_COLOURS.ignored, 0.85), blendLut(OVERLAY_COLOURS.ignored, 0.35)] as const;
const put = (out: Uint8Array, i: number, c: RGB) => {
  out[3 * i] = c[0];
  out[3 * i + 1] = c[1];
  out[3 * i + 2] = c[2];
};

/** The analysed image in its own colours (a grey image as grey RGB), a copy to draw on. */
async function baseRgb(ctx: Context): Promise<Uint8Array> {
  const rgb = await ctx.colour();
  if (rgb) return Uint8Array.from(rgb);
  const g = ctx.img.data;
  const out = new Uint8Array(3 * g.length);
  for (let i = 0; i < g.length; i++) out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = g[i];
  return out;
}

/** Pixels of the analysed image outside the analysis (strip, plate) hatched grey; what the count ignores hatched violet. */
function paintAreas(out: Uint8Array, w: number, h: number, valid: Uint8Array, ignored: Uint8Array): void {
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) blendWith(out, i, hatchAt(EXCLUDED_HATCH, x, y));
      else if (ignored[i]) blendWith(out, i, hatchAt(IGNORED_HATCH, x, y));
    }
}

/**
 * The overlays of a grain-size result. `kind[label]`: 1 a grain inside the field, 2 one cut by its border (Jeffries);
 * `spacing`: the intercept's test-line spacing, null for the versions before E112's counting (no test-line image).
 * Resolves once the images are drawn and their items said; `encoded` resolves when their PNG files (encoded by
 * libvips off the main thread meanwhile) are added to the result, in order. `counted`: the measurement's own E112
 * count of `L` with this spacing (interceptOf), whose intersections the test-line image marks; counted here without it.
 */
export async function grainOverlays(
  ctx: Context,
  L: Int32Array,
  kind: Uint8Array,
  spacing: number | null,
  counted?: CountedIntercept,
): Promise<{ encoded: Promise<void> }> {
  const { img, valid, lang } = ctx;
  const { width: w, height: h } = img;
  const { filled, lines, ignored } = overlayParts(L, w, h, valid);
  const boundary = rgb255(ctx.settings.colours.boundary);
  const base = await baseRgb(ctx);
  const out = base;
  paintAreas(out, w, h, valid, ignored);
  // the test-line image starts as the same hatched image (before the border tint)
  const t = spacing ? out.slice() : null;
  const tint = blendLut(OVERLAY_COLOURS.border, 0.3);
  for (let i = 0; i < filled.length; i++) if (valid[i] && filled[i] > 0 && kind[filled[i]] === 2) blendWith(out, i, tint);
  for (let i = 0; i < lines.length; i++) if (lines[i]) put(out, i, boundary);
  const pngs: Array<Promise<{ filename: string; data: Buffer }>> = [];
  const png = (filename: string, a: Uint8Array) => {
    const f = onWholeImage(ctx, a);
    pngs.push(encodePng(f.data, f.width, f.height).then((data) => ({ filename, data })));
  };
  png('grain-boundaries.png', out);
  ctx.items.push({ type: 'image', filename: 'grain-boundaries.png' });
  // the test-line image: every `step`-th line drawn, with the marks of its counted intersections; the count (P, its
  // marks) is of all lines
  const shown = { step: 1, lines: 0, allLines: 0, marks: 0, allMarks: 0, P: 0 };
  if (spacing && t) {
    const tl: Uint8Array = t; // (non-null inside the marks' function too)
    for (let i = 0; i < lines.length; i++) if (lines[i]) put(tl, i, boundary);
    const off = Math.floor(spacing / 2);
    const step = (shown.step = drawnLineStep(spacing, w, h));
    const cyan = blendLut(OVERLAY_COLOURS.testLine, step > 1 ? 0.7 : 0.35);
    const drawn = (at: number) => isDrawnLine(Math.round((at - off) / spacing), step);
    for (let y = off; y < h; y += spacing) {
      if (!drawn(y)) continue;
      shown.lines++;
      for (let x = 0; x < w; x++) if (valid[y * w + x] && !lines[y * w + x]) blendWith(tl, y * w + x, cyan);
    }
    for (let x = off; x < w; x += spacing) {
      if (!drawn(x)) continue;
      shown.lines++;
      for (let y = 0; y < h; y++) if (valid[y * w + x] && !lines[y * w + x]) blendWith(tl, y * w + x, cyan);
    }
    // each counted intersection on a drawn line: a plus in the colour of its weight, sized with the image (markRadius)
    const plus = plusOffsets(markRadius(w, h));
    let r: Pick<CountedIntercept, 'lines' | 'marks' | 'intersections'>;
    if (counted) {
      const hits = counted.hits;
      for (let k = 0; k < hits.length; k += 3) onHit(hits[k], hits[k + 1], hits[k + 2] === 1);
      r = counted;
    } else r = e112Intercept(L, w, h, valid, spacing, 3, onHit, junctionEvents(ctx.version));
    Object.assign(shown, { allLines: r.lines, allMarks: r.marks, P: r.intersections });
    function onHit(i: number, weight: number, vertical: boolean) {
      const y = (i / w) | 0,
        x = i - y * w;
      if (!drawn(vertical ? x : y)) return;
      shown.marks++;
      const c = weight > 1 ? OVERLAY_COLOURS.triple : weight < 1 ? OVERLAY_COLOURS.half : OVERLAY_COLOURS.hit;
      for (const [dx, dy] of plus) {
        const xx = x + dx,
          yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < w && yy < h) put(tl, yy * w + xx, c);
      }
    }
    png('e112-test-lines.png', tl);
    ctx.items.push({ type: 'image', filename: 'e112-test-lines.png' });
  }
  let nIgnored = 0,
    nValid = 0;
  for (let i = 0; i < valid.length; i++) {
    nValid += valid[i];
    nIgnored += ignored[i];
  }
  const share = nValid ? (100 * nIgnored) / nValid : 0;
  const pct = (v: number) => (lang === 'de' ? v.toFixed(1).replace('.', ',') : v.toFixed(1));
  // what the test-line image shows, and that the count (P, weighing its intersections) is of all lines
  const testLines = !spacing
    ? { en: '', de: '' }
    : shown.step > 1
      ? {
          en: ` The test-line image shows 1 in ${shown.step} of the E112 intercept's ${shown.allLines} test lines (${shown.lines} lines in cyan, ${shown.step * spacing} px apart) and the ${shown.marks} counted intersections on them: green 1, magenta 1½ (triple point), white ½ (line end on a boundary). The count uses all lines: ${weightedP('en', shown.P, shown.allMarks)}.`,
          de: ` Das Messlinienbild zeigt jede ${shown.step}. der ${shown.allLines} Messlinien des E112-Linienschnittverfahrens (${shown.lines} Linien in Cyan, ${shown.step * spacing} px Abstand) und die ${shown.marks} gezählten Schnittpunkte darauf: grün 1, magenta 1½ (Tripelpunkt), weiß ½ (Linienende auf einer Korngrenze). Gezählt wird auf allen Linien: ${weightedP('de', shown.P, shown.allMarks)}.`,
        }
      : {
          en: ` The test-line image shows all ${shown.allLines} test lines of the E112 intercept (cyan) and every counted intersection: green 1, magenta 1½ (triple point), white ½ (line end on a boundary); ${weightedP('en', shown.P, shown.allMarks)}.`,
          de: ` Das Messlinienbild zeigt alle ${shown.allLines} Messlinien des E112-Linienschnittverfahrens (cyan) und jeden gezählten Schnittpunkt: grün 1, magenta 1½ (Tripelpunkt), weiß ½ (Linienende auf einer Korngrenze); ${weightedP('de', shown.P, shown.allMarks)}.`,
        };
  ctx.items.push({
    type: 'message',
    status: 'info',
    code: 'OVERLAY_LEGEND',
    title: tr(lang, { en: 'Reading the overlays', de: 'So lesen Sie die Überlagerungen' }),
    content: tr(lang, {
      en: `Grain boundaries are 1-px lines in the boundary colour on the image's own colours. Grains inside the field count 1 (untinted); grains cut by its border count ½ (tinted amber). Violet hatching: analysed area that belongs to no grain and is not counted (${pct(share)} % of the field: pores, dropped slivers, unsegmented patches); grey hatching: outside the analysis.${testLines.en} The opacity slider fades the overlay into the original image.`,
      de: `Korngrenzen sind 1 px breite Linien in der Grenzfarbe auf den eigenen Farben des Bildes. Körner im Feld zählen 1 (ungetönt), vom Feldrand geschnittene ½ (bernsteinfarben getönt). Violett schraffiert: ausgewertete Fläche, die zu keinem Korn gehört und nicht gezählt wird (${pct(share)} % des Feldes: Poren, verworfene Splitter, nicht segmentierte Stellen); grau schraffiert: außerhalb der Auswertung.${testLines.de} Mit dem Deckkraft-Regler blenden Sie die Überlagerung in das Originalbild über.`,
    }),
  });
  const encoded = Promise.all(pngs).then((files) => void ctx.files.push(...files));
  encoded.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
  return { encoded };
}
