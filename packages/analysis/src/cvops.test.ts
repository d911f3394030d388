import { beforeAll, describe, expect, it } from 'vitest';
import { cv, initCv } from './cv.js';
import { blackHat, ellipseRects, gaussianBlur, morph } from './cvops.js';
import { blurGray, overlayRgb } from './image.js';
import { rng } from './synth/index.js';

beforeAll(() => initCv());

/** The plain OpenCV call with the elliptic kernel: the reference for the rectangle decomposition. */
function reference(data: Uint8Array, w: number, h: number, op: number, k: number): Uint8Array {
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC1);
  src.data.set(data);
  const dst = new c.Mat();
  const kernel = c.getStructuringElement(c.MORPH_ELLIPSE, new c.Size(k, k));
  c.morphologyEx(src, dst, op, kernel, new c.Point(-1, -1), 1, c.BORDER_REPLICATE);
  const out = new Uint8Array(dst.data);
  src.delete();
  dst.delete();
  kernel.delete();
  return out;
}

const same = (a: Uint8Array, b: Uint8Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('elliptic morphology by rectangles', () => {
  it('decomposes the odd ellipses', () => {
    expect(ellipseRects(11)).toEqual([
      [5, 2],
      [4, 3],
      [3, 4],
      [0, 5],
    ]);
    expect(ellipseRects(15)).toEqual([
      [7, 2],
      [6, 4],
      [5, 5],
      [4, 6],
      [0, 7],
    ]);
    expect(ellipseRects(3)).toBeNull();
    expect(ellipseRects(2)).toBeNull();
  });
  it('is bit-identical to OpenCV with the elliptic kernel', () => {
    const c = cv();
    const r = rng(3);
    const w = 157,
      h = 93;
    const grey = new Uint8Array(w * h),
      bin = new Uint8Array(w * h);
    for (let i = 0; i < grey.length; i++) {
      grey[i] = Math.floor(r() * 256);
      bin[i] = r() < 0.3 ? 1 : 0;
    }
    for (const k of [2, 3, 5, 7, 9, 11, 13, 15, 21]) {
      for (const [op, code] of [
        ['open', c.MORPH_OPEN],
        ['close', c.MORPH_CLOSE],
        ['erode', c.MORPH_ERODE],
        ['dilate', c.MORPH_DILATE],
      ] as const) {
        expect(same(morph(grey, w, h, op, k), reference(grey, w, h, code, k))).toBe(true);
        expect(same(morph(bin, w, h, op, k), reference(bin, w, h, code, k))).toBe(true);
      }
      expect(same(blackHat({ width: w, height: h, data: grey }, k).data, reference(grey, w, h, c.MORPH_BLACKHAT, k))).toBe(true);
    }
  });
});

describe('Gaussian blur by libvips', () => {
  it("has unit gain and stays within about one grey level of OpenCV's Gaussian", async () => {
    const r = rng(5);
    const w = 211,
      h = 97;
    const data = new Uint8Array(w * h);
    // smooth shading, a sharp edge and noise
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) data[y * w + x] = Math.max(0, Math.min(255, Math.round((x < 100 ? 60 : 190) + y * 0.4 + (r() - 0.5) * 40)));
    const img = { width: w, height: h, data };
    for (const sigma of [0.8, 1.2, 2]) {
      const ours = await blurGray(img, sigma);
      const ref = gaussianBlur(img, sigma);
      expect([ours.width, ours.height, ours.data.length]).toEqual([w, h, w * h]);
      let sum = 0,
        worst = 0;
      for (let i = 0; i < data.length; i++) sum += ours.data[i] - ref.data[i];
      const lift = sum / data.length;
      for (let y = 8; y < h - 8; y++)
        for (let x = 8; x < w - 8; x++) worst = Math.max(worst, Math.abs(ours.data[y * w + x] - ref.data[y * w + x] - lift));
      expect(Math.abs(lift)).toBeLessThan(0.5);
      expect(worst).toBeLessThanOrEqual(2);
    }
    expect(await blurGray(img, 0)).toBe(img);
  });
});

describe('overlay blend', () => {
  it('paints each layer with its alpha, rounding like a per-pixel blend', () => {
    const img = { width: 3, height: 1, data: new Uint8Array([0, 100, 255]) };
    const out = overlayRgb(img, [
      { mask: new Uint8Array([1, 1, 0]), color: [255, 0, 10], alpha: 0.35 },
      { mask: new Uint8Array([0, 1, 1]), color: [0, 0, 255], alpha: 0.5 },
    ]);
    // 0 → (89.25, 0, 3.5); 100 → (154.25, 65, 68.5) → then half blue (77, 32.5, 162); 255 → half blue (127.5, 127.5, 255)
    expect(Array.from(out)).toEqual([89, 0, 4, 77, 33, 162, 128, 128, 255]);
  });
});
