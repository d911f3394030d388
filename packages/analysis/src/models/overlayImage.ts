// The overlays' common frame: an overlay is drawn on the analysed area and placed on the whole image, so that it
// covers the original pixel for pixel (the results page's opacity slider fades one into the other only when the two
// have the same aspect). What lies outside the analysis (the data strip, outside a crop, an excluded strip inside
// the analysed area) is hatched grey. Presentation only: nothing here changes a measurement.
import { encodePng } from '../image.js';
import type { Context } from './common.js';

export type RGB = [number, number, number];

/** The grey of the hatching outside the analysis. */
export const EXCLUDED_COLOUR: RGB = [110, 110, 110];

/** Every 8-bit level blended with colour `c` at opacity `a` (rounded), per channel: lut[3 * v + k]. */
export const blendLut = (c: RGB, a: number): Uint8Array => {
  const lut = new Uint8Array(3 * 256);
  for (let v = 0; v < 256; v++) for (let k = 0; k < 3; k++) lut[3 * v + k] = Math.round(v * (1 - a) + c[k] * a);
  return lut;
};

/** The grey hatching: [stripe, between stripes]; pixel (x, y) is a stripe's when (x + y) % 6 < 2. */
export const EXCLUDED_HATCH = [blendLut(EXCLUDED_COLOUR, 0.8), blendLut(EXCLUDED_COLOUR, 0.45)] as const;

/** The hatching's lookup table at pixel (x, y). */
export const hatchAt = (hatch: readonly [Uint8Array, Uint8Array], x: number, y: number): Uint8Array => hatch[(x + y) % 6 < 2 ? 0 : 1];

/** Blends RGB pixel i of `out` through `lut` (blendLut). */
export const blendWith = (out: Uint8Array, i: number, lut: Uint8Array): void => {
  out[3 * i] = lut[3 * out[3 * i]];
  out[3 * i + 1] = lut[3 * out[3 * i + 1] + 1];
  out[3 * i + 2] = lut[3 * out[3 * i + 2] + 2];
};

/** Hatches grey the pixels of the analysed image (RGB, w×h) outside the analysis (`valid` 0: a strip, a plate). */
export function hatchExcluded(out: Uint8Array, w: number, h: number, valid: Uint8Array): void {
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) blendWith(out, i, hatchAt(EXCLUDED_HATCH, x, y));
    }
}

/**
 * The overlay of the analysed area (RGB, ctx.img's size) placed on the whole image, so that it covers the original
 * pixel for pixel: the rest of the image (data strip, outside a crop) grey and hatched. The analysed image itself
 * when it is the whole image (or the whole image is not known).
 */
export function onWholeImage(ctx: Context, a: Uint8Array): { data: Uint8Array; width: number; height: number } {
  const { width: W, height: H } = ctx.full;
  const { width: w, height: h } = ctx.img;
  const full = ctx.fullImage;
  if (!full || (W === w && H === h)) return { data: a, width: w, height: h };
  const out = new Uint8Array(3 * W * H);
  const { x: ox, y: oy } = ctx.origin;
  // hatched grey outside the analysed area (only there: it is overwritten inside)
  const hatch = (y: number, x0: number, x1: number) => {
    for (let x = x0, i = y * W + x0; x < x1; x++, i++) {
      const lut = hatchAt(EXCLUDED_HATCH, x, y),
        g = 3 * full.data[i];
      out[3 * i] = lut[g];
      out[3 * i + 1] = lut[g + 1];
      out[3 * i + 2] = lut[g + 2];
    }
  };
  for (let y = 0; y < H; y++) {
    if (y < oy || y >= oy + h) hatch(y, 0, W);
    else {
      hatch(y, 0, ox);
      hatch(y, ox + w, W);
      out.set(a.subarray(3 * (y - oy) * w, 3 * (y - oy + 1) * w), 3 * (y * W + ox));
    }
  }
  return { data: out, width: W, height: H };
}

/**
 * The PNG of an overlay drawn on the analysed area (RGB, ctx.img's size; changed in place): what lies outside the
 * analysis inside it hatched grey, then placed on the whole image (onWholeImage). For the overlays of porosity,
 * cracks and layer thickness; the grain overlays hatch their own way (grain/overlay.ts) and share onWholeImage.
 */
export function wholeImageOverlayPng(ctx: Context, a: Uint8Array): Promise<Buffer> {
  hatchExcluded(a, ctx.img.width, ctx.img.height, ctx.valid);
  const f = onWholeImage(ctx, a);
  return encodePng(f.data, f.width, f.height);
}
