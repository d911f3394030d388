import { afterEach, describe, expect, it } from 'vitest';
import { encodePng } from '../image.js';
import { rng } from './forest.js';
import { RECIPE_EDGE, settleLayerPixels } from './recipeEdge.js';
import { useRecipeLabels, type RecipeRun } from './recipe.js';
import { givenLabelsClassifier } from './pixelClassifier.js';
import { getModel } from '../registry.js';
import { prepare } from '../models/common.js';
import { runLayer } from '../models/layer.js';

const W = 160,
  H = 140;
const TOP = 50,
  BOTTOM = 90; // the layer is rows TOP..BOTTOM-1: 40 px
const SMEAR = 8;
/** A pore of the top coat resting on the layer: centre column, radius. */
const PORE = { x: 80, r: 14 };

/**
 * A cross-section as the EBC images are: a bright top coat (200) with a dark pore (20) resting on the layer, the
 * layer (120), a slightly darker substrate (95); noise ±6. The "classifier" gives the layer class, undecided
 * (vote 0.5), to 8 px either side of the layer and to the pore; the layer itself with vote 1.
 */
function crossSection(withPore: boolean) {
  const rand = rng(5);
  const grey = new Uint8Array(W * H),
    labels = new Uint8Array(W * H),
    confidence = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const inPore = withPore && (x - PORE.x) ** 2 + (y - (TOP - PORE.r + 2)) ** 2 <= PORE.r ** 2 && y < TOP;
      const base = inPore ? 20 : y < TOP ? 200 : y < BOTTOM ? 120 : 95;
      grey[i] = Math.round(base + (rand() - 0.5) * 12);
      const inLayer = y >= TOP && y < BOTTOM;
      const smear = (y >= TOP - SMEAR && y < BOTTOM + SMEAR) || inPore;
      labels[i] = inLayer || smear ? 1 : 0;
      confidence[i] = inLayer ? 255 : smear ? 128 : 230;
    }
  return { img: { width: W, height: H, data: grey }, labels, confidence };
}

const run: RecipeRun = {
  id: 't',
  name: 'test',
  version: 1,
  classes: [
    { name: 'other', colour: '#4060ff' },
    { name: 'layer', colour: '#30c030' },
  ],
  measures: { layer: 1 },
  classifier: givenLabelsClassifier(2),
};

/** The layer model's thickness per column (px) of the recipe's segmentation, as a job measures it. */
async function measure(withPore: boolean): Promise<{ mean: number; poreColumns: number }> {
  const s = crossSection(withPore);
  const rgb = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = s.img.data[i];
  const model = getModel('layer-thickness');
  const ctx = await prepare(await encodePng(rgb, W, H), model.defaultSettings, { pixelSizeUm: 1 }, '20261201');
  expect([ctx.img.width, ctx.img.height]).toEqual([W, H]);
  await useRecipeLabels(ctx, 'layer-thickness', run, s.labels, s.confidence);
  await runLayer(ctx);
  // the thickest column near the pore: the band's top edge at the pore's top when the pore counts as layer
  let poreColumns = 0;
  const mask = ctx.mask!;
  for (let x = PORE.x - 4; x <= PORE.x + 4; x++) {
    let first = -1,
      last = -1;
    for (let y = 0; y < H; y++)
      if (mask[y * W + x]) {
        if (first < 0) first = y;
        last = y;
      }
    poreColumns = Math.max(poreColumns, last - first + 1);
  }
  return { mean: ctx.measurements.meanThicknessUm as number, poreColumns };
}

describe('recipe layer edges: undecided layer pixels settled by their grey (RECIPE_EDGE)', () => {
  const from = RECIPE_EDGE.from;
  afterEach(() => {
    RECIPE_EDGE.from = from;
  });

  it('is in no shipped version yet: a recipe reads its undecided smears as layer', async () => {
    expect(RECIPE_EDGE.from).toBeNull();
    const { mean } = await measure(false);
    expect(mean).toBeGreaterThan(40 + SMEAR);
  });

  it('reads a 40 px band with 8 px undecided smears either side as 40 ± 1 px', async () => {
    RECIPE_EDGE.from = '20261201';
    const { mean } = await measure(false);
    expect(Math.abs(mean - 40)).toBeLessThanOrEqual(1);
  });

  it('does not let a dark pore resting on the band pull its edge out', async () => {
    RECIPE_EDGE.from = null;
    const before = await measure(true);
    expect(before.poreColumns).toBeGreaterThan(40 + 2 * PORE.r - 4);
    RECIPE_EDGE.from = '20261201';
    const after = await measure(true);
    expect(Math.abs(after.mean - 40)).toBeLessThanOrEqual(1);
    expect(after.poreColumns).toBeLessThanOrEqual(41);
  });

  it('keeps confident layer pixels and undecided ones of the layer grey', () => {
    const s = crossSection(false);
    const valid = new Uint8Array(W * H).fill(1);
    // the lower smear given the layer's own grey: it stays layer
    for (let y = BOTTOM; y < BOTTOM + SMEAR; y++) for (let x = 0; x < W; x++) s.img.data[y * W + x] = 120;
    const out = settleLayerPixels(s.img, s.labels, s.confidence, 1, valid);
    for (let x = 0; x < W; x += 7) {
      for (let y = TOP; y < BOTTOM + SMEAR - 4; y++) expect(out[y * W + x]).toBe(1);
      for (let y = TOP - SMEAR; y < TOP - 2; y++) expect(out[y * W + x]).toBe(0);
    }
  });
});
