import { beforeAll, describe, expect, it } from 'vitest';
import { cv, initCv } from './cv.js';
import { blackHat, ellipseRects, morph } from './cvops.js';
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
  src.delete(); dst.delete(); kernel.delete();
  return out;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('elliptic morphology by rectangles', () => {
  it('decomposes the odd ellipses', () => {
    expect(ellipseRects(11)).toEqual([[5, 2], [4, 3], [3, 4], [0, 5]]);
    expect(ellipseRects(15)).toEqual([[7, 2], [6, 4], [5, 5], [4, 6], [0, 7]]);
    expect(ellipseRects(3)).toBeNull();
    expect(ellipseRects(2)).toBeNull();
  });
  it('is bit-identical to OpenCV with the elliptic kernel', () => {
    const c = cv();
    const r = rng(3);
    const w = 157, h = 93;
    const grey = new Uint8Array(w * h), bin = new Uint8Array(w * h);
    for (let i = 0; i < grey.length; i++) { grey[i] = Math.floor(r() * 256); bin[i] = r() < 0.3 ? 1 : 0; }
    for (const k of [2, 3, 5, 7, 9, 11, 13, 15, 21]) {
      for (const [op, code] of [['open', c.MORPH_OPEN], ['close', c.MORPH_CLOSE], ['erode', c.MORPH_ERODE], ['dilate', c.MORPH_DILATE]] as const) {
        expect(same(morph(grey, w, h, op, k), reference(grey, w, h, code, k))).toBe(true);
        expect(same(morph(bin, w, h, op, k), reference(bin, w, h, code, k))).toBe(true);
      }
      expect(same(blackHat({ width: w, height: h, data: grey }, k).data, reference(grey, w, h, c.MORPH_BLACKHAT, k))).toBe(true);
    }
  });
});
