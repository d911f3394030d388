import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { runModel } from '../registry.js';
import { crackImage, layerImage, poreImage, type ScaleBarSpec } from '../synth/index.js';
import type { Context } from './common.js';
import { EXCLUDED_HATCH, hatchAt, wholeImageOverlayPng } from './overlayImage.js';

beforeAll(() => initCv());

const raw = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
/** Grey g hatched at (x, y) as the overlays hatch what lies outside the analysis. */
const hatched = (g: number, x: number, y: number): [number, number, number] => {
  const lut = hatchAt(EXCLUDED_HATCH, x, y);
  return [lut[3 * g], lut[3 * g + 1], lut[3 * g + 2]];
};

describe('an overlay on the whole image (overlayImage.ts)', () => {
  it('places the analysed area pixel for pixel, hatches the rest and the excluded pixels inside it', async () => {
    const W = 10,
      H = 8,
      w = 4,
      h = 3,
      origin = { x: 3, y: 2 };
    const full = { width: W, height: H, data: Uint8Array.from({ length: W * H }, (_, i) => (i * 7) % 256) };
    const a = Uint8Array.from({ length: 3 * w * h }, (_, i) => 200 + (i % 50));
    const valid = new Uint8Array(w * h).fill(1);
    valid[1 * w + 1] = 0;
    const before = Uint8Array.from(a);
    const ctx = {
      img: { width: w, height: h, data: new Uint8Array(w * h) },
      full: { width: W, height: H },
      fullImage: full,
      origin,
      valid,
    } as unknown as Context;
    const out = await raw(await wholeImageOverlayPng(ctx, a));
    expect([out.info.width, out.info.height]).toEqual([W, H]);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const px = [...out.data.subarray(3 * (y * W + x), 3 * (y * W + x) + 3)];
        const ix = x - origin.x,
          iy = y - origin.y;
        const inside = ix >= 0 && iy >= 0 && ix < w && iy < h;
        const j = iy * w + ix;
        if (!inside) expect(px, `${x},${y}`).toEqual(hatched(full.data[y * W + x], x, y));
        else if (!valid[j]) {
          const lut = hatchAt(EXCLUDED_HATCH, ix, iy);
          expect(px).toEqual([0, 1, 2].map((k) => lut[3 * before[3 * j + k] + k]));
        } else expect(px).toEqual([...before.subarray(3 * j, 3 * j + 3)]);
      }
  });
});

/**
 * The porosity, cracks and layer overlays of a run on an image with an SEM data strip, cropped: drawn at the whole
 * image's size (the results page fades an overlay into the original, with its opacity slider, only when the two
 * have the same aspect), the crop in place and everything outside it (strip included) hatched grey.
 */
describe('porosity, cracks and layer overlays cover the whole image', () => {
  const sem = (value: number, lengthPx: number): ScaleBarSpec => ({ value, unit: 'µm', lengthPx, style: 'sem' });
  const cases = [
    {
      model: 'porosity',
      file: 'porosity-overlay.png',
      image: () => poreImage({ width: 480, height: 360, count: 40, noise: 4, pixelSizeUm: 1, seed: 11, scaleBar: sem(100, 100) }),
      crop: { x: 60, y: 40, width: 300, height: 220 },
    },
    {
      model: 'cracks',
      file: 'cracks-overlay.png',
      image: () => crackImage({ width: 480, height: 360, cracks: 4, noise: 4, pixelSizeUm: 1, seed: 5, scaleBar: sem(100, 100) }),
      crop: { x: 50, y: 30, width: 320, height: 240 },
    },
    {
      model: 'layer-thickness',
      file: 'layer-overlay.png',
      image: () => layerImage({ width: 480, height: 360, noise: 4, pixelSizeUm: 0.5, seed: 3, scaleBar: sem(50, 100) }),
      crop: { x: 40, y: 20, width: 400, height: 320 },
    },
  ];
  for (const c of cases)
    it(`${c.model}: ${c.file} is the whole image, the crop in place, the rest hatched; the measurement is the crop's`, async () => {
      const s = await c.image();
      const orig = await raw(s.png);
      const W = orig.info.width,
        H = orig.info.height;
      expect(H).toBeGreaterThan(s.micrograph.height); // the strip below
      const grey = (i: number) => orig.data[i * orig.info.channels];
      const r = await runModel(c.model, undefined, s.png, {}, { pixelSizeUm: s.pixelSizeUm, crop: c.crop });
      expect([r.measurements.analysedWidthPx, r.measurements.analysedHeightPx]).toEqual([c.crop.width, c.crop.height]);
      expect(r.items.some((i) => i.type === 'image' && i.filename === c.file)).toBe(true);
      const ov = await raw(r.files.find((f) => f.filename === c.file)!.data);
      expect([ov.info.width, ov.info.height]).toEqual([W, H]);
      const { x: cx, y: cy, width: cw, height: ch } = c.crop;
      let outside = 0,
        outsideHatched = 0,
        inside = 0,
        insideHatched = 0;
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const i = y * W + x;
          const px = [ov.data[3 * i], ov.data[3 * i + 1], ov.data[3 * i + 2]];
          const g = grey(i);
          const h = hatched(g, x, y);
          const isHatched = px[0] === h[0] && px[1] === h[1] && px[2] === h[2];
          if (x >= cx && x < cx + cw && y >= cy && y < cy + ch) {
            inside++;
            if (isHatched && px[0] !== g) insideHatched++;
          } else {
            outside++;
            if (isHatched) outsideHatched++;
          }
        }
      expect(outside).toBe(W * H - cw * ch);
      expect(outsideHatched).toBe(outside);
      // inside the crop: the overlay on the image, not hatched
      expect(insideHatched / inside).toBeLessThan(0.005);
    }, 60_000);
});
