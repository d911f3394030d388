import { beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { encodePng } from '../image.js';
import { rng } from './forest.js';
import { trainClassifier } from './pixelClassifier.js';
import { strokesFor } from '../synth/strokes.js';
import { RECIPE_UNLIKE, type RecipeRun } from './recipe.js';
import { runModel } from '../registry.js';
import type { ModelVersion } from '../types.js';

beforeAll(() => initCv());

// A porosity recipe trained on dark discs in a bright textured matrix, applied to an image of the same kind and to
// one of another kind (pixel-sized black-and-white noise): the second result warns that the image is unlike the
// recipe's strokes (RECIPE_IMAGE_UNLIKE, from 20261204), and still measures.
const W = 256,
  H = 192;

function pores(seed: number): { data: Uint8Array; truth: Uint8Array } {
  const rand = rng(seed);
  const discs = Array.from({ length: 14 }, () => [12 + rand() * (W - 24), 12 + rand() * (H - 24), 5 + rand() * 7]);
  const data = new Uint8Array(W * H),
    truth = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const pore = discs.some(([cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r);
      truth[i] = pore ? 1 : 0;
      data[i] = pore ? 40 + Math.round(rand() * 10) : 180 + Math.round((rand() - 0.5) * 30);
    }
  return { data, truth };
}

const png = async (grey: Uint8Array) => {
  const rgb = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) rgb.fill(grey[i], 3 * i, 3 * i + 3);
  return encodePng(rgb, W, H);
};

describe('a recipe applied to an image unlike its strokes (issue 22)', () => {
  const a = pores(1);
  const run: RecipeRun = {
    id: 'r',
    name: 'Pores',
    version: 1,
    classes: [
      { name: 'matrix', colour: '#4060ff' },
      { name: 'pore', colour: '#ff3030' },
    ],
    measures: { phase: [1] },
    classifier: trainClassifier({ width: W, height: H, data: a.data }, strokesFor(a.truth, W, H, 5), 2, { seed: 1 }).classifier,
  };
  const warned = async (grey: Uint8Array, version: ModelVersion, lang: 'en' | 'de' = 'en') => {
    const r = await runModel('porosity', version, await png(grey), {}, { recipe: run, pixelSizeUm: 1, lang });
    return r.items.find((i) => i.type === 'message' && i.code === 'RECIPE_IMAGE_UNLIKE') as { title: string; content: string } | undefined;
  };
  const rand = rng(9);
  const noise = Uint8Array.from({ length: W * H }, () => (rand() < 0.5 ? 0 : 255));

  it('warns from 20261204 when the image is unlike the strokes, in the user language, and not on an image like them', async () => {
    expect(RECIPE_UNLIKE.from).toBe('20261204');
    expect(await warned(pores(2).data, '20261204')).toBeUndefined();
    const en = await warned(noise, '20261204');
    expect(en?.content).toContain('the recipe "Pores"');
    expect(en?.content).toMatch(/^\d+\.\d % of the analysed area has grey levels that none of the strokes/);
    const de = await warned(noise, '20261204', 'de');
    expect(de?.title).toBe('Dieses Bild ähnelt den Strichen des Rezepts nicht');
    expect(de?.content).toMatch(/^\d+,\d % des ausgewerteten Bereichs/);
  });

  it('answers as before in 20261203', async () => {
    expect(await warned(noise, '20261203')).toBeUndefined();
  });
});
