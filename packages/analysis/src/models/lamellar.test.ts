import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { decodeImage } from '../image.js';
import { terminateOcr } from '../ocr.js';
import { grainImage } from '../synth/index.js';
import { lamellarImage } from '../synth/lamellar.js';
import { runModel } from '../registry.js';
import { LAMELLAR_FRACTION, lamellarity } from './grainSize.js';

beforeAll(() => initCv());
afterAll(() => terminateOcr());

const all = (n: number) => new Uint8Array(n).fill(1);

describe('lamellar structures (20261126)', () => {
  it('generates colonies of parallel lamellae with the colonies as truth', async () => {
    const s = await lamellarImage({ width: 480, height: 360, colonyPx: 120, spacingPx: 8, seed: 1 });
    // about (480 · 360) / 120² = 12 colonies, far fewer than lamellae
    expect(s.truth.grainsJeffries).toBeGreaterThan(8);
    expect(s.truth.grainsJeffries).toBeLessThan(24);
    expect(s.truth.lamellarSpacingUm / s.pixelSizeUm).toBeGreaterThan(7);
    expect(s.truth.lamellarSpacingUm / s.pixelSizeUm).toBeLessThan(9);
  });

  it('tells lamellar colonies from equiaxed grains, whatever their size', async () => {
    // 20261127: the spacing is the median gap between lines, so 60 % ferrite beside the colonies does not hide them
    const mixed = await decodeImage(
      (await lamellarImage({ width: 720, height: 540, colonyPx: 100, spacingPx: 12, seed: 6, noise: 5, ferrite: 0.6 })).png,
    );
    expect((await lamellarity(mixed, all(720 * 540), '20261126')).coherentFraction).toBeLessThan(LAMELLAR_FRACTION);
    expect((await lamellarity(mixed, all(720 * 540), '20261127')).coherentFraction).toBeGreaterThan(LAMELLAR_FRACTION);
    for (const [colonyPx, spacingPx, seed] of [
      [120, 8, 1],
      [160, 6, 2],
      [90, 10, 3],
    ]) {
      const img = await decodeImage((await lamellarImage({ width: 480, height: 360, colonyPx, spacingPx, seed, noise: 5 })).png);
      const L = await lamellarity(img, all(480 * 360), '20261126');
      expect(L.coherentFraction).toBeGreaterThan(LAMELLAR_FRACTION);
      // random line spacing along horizontal and vertical test lines: about π/2 × the true spacing
      expect(L.spacingPx / spacingPx).toBeGreaterThan(1.2);
      expect(L.spacingPx / spacingPx).toBeLessThan(1.9);
    }
    for (const [grainPx, lineWidth, twins] of [
      [16, 1.3, false],
      [44, 2.2, true],
      [90, 5, false],
    ] as const) {
      const img = await decodeImage((await grainImage({ width: 480, height: 360, grainPx, lineWidth, twins, noise: 5, seed: 3 })).png);
      expect((await lamellarity(img, all(480 * 360), '20261126')).coherentFraction).toBeLessThan(0.1);
      expect((await lamellarity(img, all(480 * 360), '20261127')).coherentFraction).toBeLessThan(0.1);
    }
  }, 30_000);

  it('warns that G of a lamellar structure is no E112 grain size (20261126, not before)', async () => {
    const s = await lamellarImage({ width: 480, height: 360, colonyPx: 90, spacingPx: 10, seed: 3, noise: 5 });
    const warning = (r: Awaited<ReturnType<typeof runModel>>) =>
      r.items.find((i) => i.type === 'message' && i.status === 'warning' && /lamellar/i.test(i.title ?? ''));
    const now = await runModel('grain-size', '20261126', s.png, {}, { pixelSizeUm: s.pixelSizeUm });
    const item = warning(now);
    expect(item).toBeTruthy();
    expect(item && 'content' in item ? item.content : '').toMatch(/mask editor/);
    expect(warning(await runModel('grain-size', '20261125', s.png, {}, { pixelSizeUm: s.pixelSizeUm }))).toBeUndefined();
    // lamellae so fine that the grain segmentation finds almost no grains: not refused, the warning says why
    const fine = await lamellarImage({ width: 640, height: 480, colonyPx: 160, spacingPx: 6, seed: 2, noise: 5 });
    await expect(runModel('grain-size', '20261125', fine.png, {}, { pixelSizeUm: fine.pixelSizeUm })).rejects.toMatchObject({
      code: 'TOO_FEW_FEATURES',
    });
    expect(warning(await runModel('grain-size', '20261126', fine.png, {}, { pixelSizeUm: fine.pixelSizeUm }))).toBeTruthy();
    const grains = await grainImage({ width: 480, height: 360, grainPx: 40, noise: 4, seed: 9 });
    expect(warning(await runModel('grain-size', '20261126', grains.png, {}, { pixelSizeUm: grains.pixelSizeUm }))).toBeUndefined();
  }, 60_000);

  it("measures the colonies of a lamellar structure (20261127): G near the colonies' truth, far closer than 20261126", async () => {
    for (const [colonyPx, spacingPx, seed, ferrite] of [
      [130, 9, 4, 0],
      [90, 10, 3, 0],
      [120, 8, 5, 0.4],
      [100, 12, 6, 0.6],
    ]) {
      const s = await lamellarImage({ width: 720, height: 540, colonyPx, spacingPx, seed, noise: 5, ferrite });
      const now = await runModel('grain-size', '20261127', s.png, {}, { pixelSizeUm: s.pixelSizeUm });
      const m = now.measurements;
      expect(m.segmentation).toBe('colonies');
      // colonies are segmented on the lamellae's direction, ferrite grains (no lamellae) by their boundary lines
      expect(Math.abs(Number(m.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.9);
      expect(Math.abs(Number(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.6);
      expect(Number(m.lamellarShare)).toBeGreaterThan(ferrite ? 0.3 : 0.95);
      if (ferrite) expect(Number(m.lamellarShare)).toBeLessThan(0.8);
      // the random line spacing is reported (π/2 × the true spacing on average; over the field, ferrite included)
      expect(Number(m.lamellarSpacingUm) / s.truth.lamellarSpacingUm).toBeGreaterThan(1.2);
      if (!ferrite) expect(Number(m.lamellarSpacingUm) / s.truth.lamellarSpacingUm).toBeLessThan(1.9);
      const item = now.items.find((i) => i.type === 'message' && /colonies/i.test(i.title ?? ''));
      expect(item && 'content' in item ? item.content : '').toMatch(/prior-austenite/);
      if (!ferrite) {
        // 20261126 counted the strips between lamellae
        const before = (await runModel('grain-size', '20261126', s.png, {}, { pixelSizeUm: s.pixelSizeUm })).measurements;
        expect(Number(before.astmGIntercept) - s.truth.astmGIntercept).toBeGreaterThan(1.5);
      }
    }
    // the mask editor starts from the colonies: re-running with the job's own segmentation.png gives its count
    const s = await lamellarImage({ width: 720, height: 540, colonyPx: 120, spacingPx: 8, seed: 5, noise: 5, ferrite: 0.4 });
    const own = await runModel('grain-size', '20261127', s.png, {}, { pixelSizeUm: s.pixelSizeUm });
    const file = own.files.find((f) => f.filename === 'segmentation.png')!;
    const again = await runModel('grain-size', '20261127', s.png, {}, { pixelSizeUm: s.pixelSizeUm, masks: file.data });
    expect(Math.abs(Number(again.measurements.grainCount) - Number(own.measurements.grainCount))).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(again.measurements.astmGPlanimetric) - Number(own.measurements.astmGPlanimetric))).toBeLessThan(0.1);
    // the ferrite beside the colonies is segmented at its own grains' scale (the colonies excluded): before, its
    // grains mostly meeting the excluded colonies read as one endless run and were not segmented at all
    const mixed = await lamellarImage({ width: 720, height: 540, colonyPx: 134, spacingPx: 7, seed: 22, noise: 5, ferrite: 0.3 });
    const mm = await runModel('grain-size', '20261127', mixed.png, {}, { pixelSizeUm: mixed.pixelSizeUm });
    const seg = await sharp(mm.files.find((f) => f.filename === 'segmentation.png')!.data)
      .greyscale()
      .raw()
      .toBuffer();
    expect(seg.filter((v) => v > 0).length / seg.length).toBeGreaterThan(0.85);
    expect(Math.abs(Number(mm.measurements.astmGIntercept) - mixed.truth.astmGIntercept)).toBeLessThan(0.6);
    // equiaxed grains are no colonies
    const grains = await grainImage({ width: 480, height: 360, grainPx: 40, noise: 4, seed: 9 });
    expect((await runModel('grain-size', '20261127', grains.png, {}, { pixelSizeUm: grains.pixelSizeUm })).measurements.segmentation).not.toBe(
      'colonies',
    );
  }, 90_000);
});
