import { beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { components } from '../cvops.js';
import { RECIPE_CRACKS, recipeCrackMask } from './crackShape.js';
import { encodePng } from '../image.js';
import { givenLabelsClassifier } from '../classifier/pixelClassifier.js';
import { useRecipeLabels, type RecipeRun } from '../classifier/recipe.js';
import { getModel } from '../registry.js';
import { prepare } from './common.js';
import { runCracks } from './cracks.js';
import type { ModelVersion } from '../types.js';

beforeAll(() => initCv());

// A recipe's classes on a hand-made cross-section: background (0) above and below, the layer (1) in a band,
// cracks (2) drawn into it; the grey image is the layer's grey with a little texture.
const W = 240,
  H = 160,
  TOP = 30,
  BOTTOM = 130;
const LAYER = 1,
  CRACK = 2;

function section() {
  const labels = new Uint8Array(W * H);
  const grey = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      labels[i] = y >= TOP && y < BOTTOM ? LAYER : 0;
      grey[i] = (y >= TOP && y < BOTTOM ? 120 : 200) + ((x * 7 + y * 13) % 9) - 4;
    }
  // the cracks model reads a recipe's cracks inside the layer closed over them (recipe.ts): the band
  const valid = new Uint8Array(W * H);
  for (let y = TOP; y < BOTTOM; y++) valid.fill(1, y * W, (y + 1) * W);
  return { labels, grey, valid };
}

function rect(labels: Uint8Array, x0: number, y0: number, x1: number, y1: number, cls = CRACK, grey?: Uint8Array, g = 0) {
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      labels[y * W + x] = cls;
      if (grey) grey[y * W + x] = g;
    }
}

/** A straight crack from (x0, y0) to (x1, y1), `half` px either side of its centre line. */
function line(labels: Uint8Array, x0: number, y0: number, x1: number, y1: number, half: number) {
  const dx = x1 - x0,
    dy = y1 - y0,
    len = Math.hypot(dx, dy);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const t = ((x - x0) * dx + (y - y0) * dy) / (len * len);
      if (t < 0 || t > 1) continue;
      if (Math.abs((x - x0) * dy - (y - y0) * dx) / len <= half) labels[y * W + x] = CRACK;
    }
}

function disc(labels: Uint8Array, cx: number, cy: number, r0: number, r1: number, cls: number, grey?: Uint8Array, g = 0, half = false) {
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const d = Math.hypot(x - cx, y - cy);
      if (d < r0 || d >= r1 || (half && y < cy)) continue;
      labels[y * W + x] = cls;
      if (grey) grey[y * W + x] = g;
    }
}

const count = (s: ReturnType<typeof section>, t = RECIPE_CRACKS) => {
  const { mask } = recipeCrackMask(s.labels, s.valid, CRACK, LAYER, W, H, s.grey, t);
  return components(mask, W, H, 8).count;
};

describe('recipe crack class read as cracks (issue 22, crackShape.ts)', () => {
  it('counts a crack the classifier broke into 3 collinear dashes with 3-px gaps as one', () => {
    const s = section();
    // 2 px wide, dashes of 22 px from the layer's top to its bottom with 3-px gaps
    for (const y0 of [40, 65, 90]) rect(s.labels, 100, y0, 102, y0 + 22);
    expect(count(s)).toBe(1);
    // without joining, the 3-px gaps (wider than the 3-px closing bridges) leave three cracks
    expect(count(s, { ...RECIPE_CRACKS, gapWidths: 0, minGap: 0 })).toBe(3);
    // the joined crack is as long as the three dashes and the gaps between them
    const { pieces } = recipeCrackMask(s.labels, s.valid, CRACK, LAYER, W, H, s.grey);
    expect(pieces.filter((p) => p.kept)[0].lengthPx).toBeGreaterThan(65);
  });

  it('joins dashes along a slanted crack but not dashes side by side', () => {
    const s = section();
    // a crack at 40° in two dashes with a 4-px gap along it
    line(s.labels, 30, 40, 60, 65, 1);
    line(s.labels, 63, 67.5, 100, 98.5, 1);
    // two parallel vertical dashes 5 px apart, side by side (not one continuing the other)
    rect(s.labels, 170, 45, 172, 105);
    rect(s.labels, 177, 45, 179, 105);
    expect(count(s)).toBe(3);
    expect(count(s, { ...RECIPE_CRACKS, gapWidths: 0, minGap: 0 })).toBe(4);
  });

  it('counts two parallel cracks 20 px apart as two', () => {
    const s = section();
    rect(s.labels, 100, 40, 102, 120);
    rect(s.labels, 122, 40, 124, 120);
    expect(count(s)).toBe(2);
  });

  it('does not count a round speck or a short speck as a crack', () => {
    const s = section();
    disc(s.labels, 80, 80, 0, 7, CRACK);
    rect(s.labels, 160, 70, 162, 76);
    expect(count(s)).toBe(0);
  });

  it('does not count the rim of a pore: a ring around it, or a half ring along a dark pore taken for the layer', () => {
    const s = section();
    // a closed ring of the crack class around a pore (the pore's inside classed as the layer, dark)
    disc(s.labels, 60, 80, 0, 14, LAYER, s.grey, 30);
    disc(s.labels, 60, 80, 14, 17, CRACK, s.grey, 60);
    // the lower half of a ring along a dark pore classed as the layer
    disc(s.labels, 170, 70, 0, 14, LAYER, s.grey, 30);
    disc(s.labels, 170, 70, 14, 17, CRACK, s.grey, 60, true);
    expect(count(s)).toBe(0);
    // the same half ring in the layer's own grey (no pore inside) is a curved crack
    const t = section();
    disc(t.labels, 170, 70, 14, 17, CRACK, t.grey, 60, true);
    expect(count(t)).toBe(1);
  });

  it("does not count the dark seam along the layer's edge, and counts the cracks that reach it", () => {
    const s = section();
    // the seam: 3 px of the crack class along the layer's top edge, background above it
    rect(s.labels, 10, TOP, 230, TOP + 3);
    // a crack from the bottom edge half-way up, not touching the seam
    rect(s.labels, 120, 80, 123, BOTTOM);
    expect(count(s)).toBe(1);
  });
});

describe('the cracks model with a recipe (issue 22)', () => {
  // the recipe's crack class on the section: one crack broken into three dashes, a pore's rim, a speck
  const run: RecipeRun = {
    id: 'test',
    name: 'coating',
    version: 1,
    classes: ['background', 'layer', 'crack'].map((name, i) => ({ name, colour: ['#4060ff', '#30c030', '#ff3030'][i] })),
    measures: { crack: CRACK, crackRegion: LAYER },
    classifier: givenLabelsClassifier(3),
  };
  async function crackCount(version: ModelVersion): Promise<number> {
    const s = section();
    for (const y0 of [40, 65, 90]) rect(s.labels, 100, y0, 102, y0 + 22, CRACK, s.grey, 40);
    disc(s.labels, 170, 80, 0, 12, LAYER, s.grey, 30);
    disc(s.labels, 170, 80, 12, 15, CRACK, s.grey, 60);
    disc(s.labels, 50, 80, 0, 4, CRACK, s.grey, 40);
    const rgb = new Uint8Array(W * H * 3);
    for (let i = 0; i < W * H; i++) rgb.fill(s.grey[i], i * 3, i * 3 + 3);
    const ctx = await prepare(await encodePng(rgb, W, H), getModel('cracks').defaultSettings, { pixelSizeUm: 1 }, version);
    await useRecipeLabels(ctx, 'cracks', run, s.labels);
    await runCracks(ctx);
    return ctx.measurements.crackCount as number;
  }

  it('counts the dashed crack once and leaves out the rim and the speck from 20261204; earlier versions answer as they did', async () => {
    expect(RECIPE_CRACKS.from).toBe('20261204');
    expect(await crackCount('20261204')).toBe(1);
    expect(await crackCount('20261203')).toBeGreaterThan(1);
  });
});
