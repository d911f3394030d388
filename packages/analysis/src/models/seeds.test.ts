import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { components, distanceTransform } from '../cvops.js';
import { grainImage, rng } from '../synth/index.js';
import { dynamicSeeds, segmentGrains } from './grainSize.js';

beforeAll(() => initCv());

/** The original per-level implementation (one connected-components pass per distance level): the reference. */
function dynamicSeedsReference(dist: Float32Array, w: number, h: number): { seeds: Int32Array; count: number } {
  let maxD = 0;
  for (let i = 0; i < dist.length; i++) if (dist[i] > maxD) maxD = dist[i];
  const levels: number[] = [];
  for (let l = 2; l <= maxD; l = l < 6 ? l + 1 : Math.round(l * 1.25)) levels.push(l);
  if (!levels.length) return { seeds: new Int32Array(w * h), count: 0 };
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) mask[i] = dist[i] >= levels[0] ? 1 : 0;
  const first = components(mask, w, h, 8);
  const S = new Int32Array(first.labels);
  let next = first.count + 1;
  const minA = 6;
  for (let k = 1; k < levels.length; k++) {
    for (let i = 0; i < mask.length; i++) mask[i] = dist[i] >= levels[k] ? 1 : 0;
    const cc = components(mask, w, h, 8);
    if (cc.count < 1) break;
    const parentOf = new Int32Array(cc.count + 1);
    for (let i = 0; i < mask.length; i++) {
      const c = cc.labels[i];
      if (c && !parentOf[c]) parentOf[c] = S[i];
    }
    const nChildren = new Map<number, number>();
    for (let c = 1; c <= cc.count; c++) if (cc.area[c] >= minA && parentOf[c] > 0) nChildren.set(parentOf[c], (nChildren.get(parentOf[c]) ?? 0) + 1);
    const split = new Set<number>();
    for (const [p, n] of nChildren) if (n >= 2) split.add(p);
    if (!split.size) continue;
    const newLabel = new Int32Array(cc.count + 1);
    for (let c = 1; c <= cc.count; c++) if (split.has(parentOf[c]) && cc.area[c] >= minA) newLabel[c] = next++;
    for (let i = 0; i < S.length; i++) {
      if (!split.has(S[i])) continue;
      const c = cc.labels[i];
      S[i] = c ? newLabel[c] : 0;
    }
  }
  // drop thin seeds (slivers inside wide, partly lit boundary bands): a grain is at least 7 px across
  const peak = new Float32Array(next + 1);
  for (let i = 0; i < S.length; i++) if (S[i] && dist[i] > peak[S[i]]) peak[S[i]] = dist[i];
  // compact labels
  const map = new Int32Array(next + 1);
  let n = 0;
  for (let i = 0; i < S.length; i++) {
    const l = S[i];
    if (!l) continue;
    if (peak[l] < 3.5) {
      S[i] = 0;
      continue;
    }
    if (!map[l]) map[l] = ++n;
    S[i] = map[l];
  }
  return { seeds: S, count: n };
}

function expectSameSeeds(dist: Float32Array, w: number, h: number) {
  const a = dynamicSeeds(dist, w, h),
    b = dynamicSeedsReference(dist, w, h);
  expect(a.count).toBe(b.count);
  let diff = 0;
  for (let i = 0; i < a.seeds.length; i++) if (a.seeds[i] !== b.seeds[i]) diff++;
  expect(diff).toBe(0);
  return a.count;
}

describe('dynamicSeeds (level tree on run lengths) equals the per-level reference', () => {
  it('on random blobs with narrow gaps', () => {
    const r = rng(7);
    for (let t = 0; t < 4; t++) {
      const w = 300 + t * 37,
        h = 200 + t * 23;
      const m = new Uint8Array(w * h);
      for (let c = 0; c < 40; c++) {
        const cx = r() * w,
          cy = r() * h,
          rx = 3 + r() * 30,
          ry = 3 + r() * 30;
        for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(h, cy + ry); y++)
          for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(w, cx + rx); x++)
            if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) m[y * w + x] = 255;
      }
      for (let i = 0; i < m.length; i++) if (r() < 0.01) m[i] = 0;
      expect(expectSameSeeds(distanceTransform(m, w, h), w, h)).toBeGreaterThan(5);
    }
  });
  it('on random level fields (every 8-neighbour configuration)', () => {
    const r = rng(11);
    for (let t = 0; t < 6; t++) {
      const w = 120 + t * 13,
        h = 90 + t * 7;
      const d = new Float32Array(w * h);
      // pure noise (t even) or blocky noise: sparse, diagonal-only and touching cores at every level
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
          d[y * w + x] = t % 2 === 0 ? r() * 14 : (((Math.floor(x / 3) * 7919 + Math.floor(y / 2) * 104729) % 97) / 97) * 14 + r() * 3;
      expectSameSeeds(d, w, h);
    }
  });
  it('on synthetic grain boundary maps', async () => {
    for (const [seed, noise] of [
      [1, 6],
      [2, 12],
    ]) {
      const s = await grainImage({ width: 500, height: 400, grainPx: 30, noise, seed, scaleBar: null });
      const { data, info } = await sharp(s.png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const w = info.width,
        h = info.height;
      const img = { width: w, height: h, data: new Uint8Array(data) };
      const seg = await segmentGrains(img, new Uint8Array(w * h).fill(1), '20241025');
      const interior = new Uint8Array(w * h);
      for (let i = 0; i < interior.length; i++) interior[i] = seg.boundary[i] ? 0 : 255;
      expect(expectSameSeeds(distanceTransform(interior, w, h), w, h)).toBeGreaterThan(20);
    }
  });
});
