import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { crackImage, grainImage, layerImage, poreImage } from '../synth/index.js';
import { getModel, models, runModel } from '../registry.js';
import { validateSettings } from '../settings.js';
import { AnalysisError } from '../errors.js';
import { terminateOcr } from '../ocr.js';
import { encodeGreyTiff } from '../synth/tiff.js';

afterAll(() => terminateOcr());
const num = (v: unknown) => Number(v);

describe('registry and settings', () => {
  it('exposes the five models with schema, defaults and versions', () => {
    expect(models.map((m) => m.name).sort()).toEqual(['cracks', 'grain-size', 'layer-thickness', 'porosity', 'scale-bar']);
    for (const m of models) {
      expect(m.versions).toEqual([
        '20241025',
        '20250101',
        '20261123',
        '20261125',
        '20261126',
        '20261127',
        '20261201',
        '20261202',
        '20261203',
        '20261204',
        '20261207',
        '20261208',
        '20261209',
      ]);
      expect(m.currentVersion).toBe('20261209');
      expect(m.defaultSettings.magnification).toEqual({ unit: 'µm', number: 100, length: 100 });
      expect(m.defaultSettings.segmentation.maskErosion).toBe(40);
      expect(m.displayName.de).toBeTruthy();
    }
    expect(getModel('layer-thickness').defaultSettings.measurementType).toBe('LIKE_LAYER');
  });
  it('validates settings Ajv-style', () => {
    const schema = getModel('grain-size').settingsSchema;
    expect(validateSettings(schema, {})).toBeNull();
    const errs = validateSettings(schema, { magnification: { unit: 'inch', number: 1, length: 5000 } });
    expect(errs?.map((e) => e.instancePath).sort()).toEqual(['/magnification/length', '/magnification/unit']);
  });
});

describe('image errors', () => {
  it('rejects unsupported and corrupt files with stable codes', async () => {
    const m = getModel('porosity');
    await expect(m.run(Buffer.from('GIF89a....'))).rejects.toMatchObject({ code: 'UNSUPPORTED_IMAGE' });
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    await expect(m.run(png.subarray(0, 60))).rejects.toBeInstanceOf(AnalysisError);
    await expect(m.run(png.subarray(0, 60))).rejects.toMatchObject({ code: 'CORRUPT_IMAGE' });
  });
});

describe('scale bar', () => {
  it('reads SEM-strip and overlay bars (µ, Greek μ, nm, mm) and falls back to settings', async () => {
    const cases = [
      { value: 50, unit: 'µm', lengthPx: 150, style: 'sem', expectUnit: 'µm' },
      { value: 20, unit: 'μm', lengthPx: 120, style: 'overlay', expectUnit: 'µm' },
      { value: 500, unit: 'nm', lengthPx: 200, style: 'sem', expectUnit: 'nm' },
      { value: 2, unit: 'mm', lengthPx: 250, style: 'overlay', expectUnit: 'mm' },
    ] as const;
    for (const c of cases) {
      const s = await poreImage({
        width: 640,
        height: 480,
        count: 10,
        scaleBar: { value: c.value, unit: c.unit, lengthPx: c.lengthPx, style: c.style },
      });
      const r = await runModel('scale-bar', undefined, s.png, {});
      expect(r.measurements.scaleBarValue).toBe(c.value);
      expect(r.measurements.scaleBarUnit).toBe(c.expectUnit);
      const um = { µm: 1, nm: 0.001, mm: 1000 }[c.expectUnit];
      expect(num(r.measurements.pixelSizeUm)).toBeCloseTo((c.value * um) / c.lengthPx, 6);
    }
    const none = await poreImage({ width: 400, height: 300, count: 5 });
    const r = await runModel('porosity', undefined, none.png, { magnification: { unit: 'µm', number: 80, length: 100 } }, { lang: 'de' });
    expect(r.measurements.calibrationSource).toBe('settings');
    expect(r.measurements.pixelSizeUm).toBeCloseTo(0.8);
    expect(r.items.find((i) => i.type === 'message')).toMatchObject({ status: 'warning', title: 'Kein Maßstabsbalken gefunden' });
  }, 60_000);
});

describe('grain size on synthetic micrographs', () => {
  const cases = [
    {
      name: 'clean SEM',
      o: { width: 900, height: 700, grainPx: 45, pixelSizeUm: 0.5, scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' } },
    },
    {
      name: 'twins, uneven light, noise',
      o: {
        width: 900,
        height: 700,
        grainPx: 50,
        pixelSizeUm: 0.5,
        noise: 8,
        illumination: 0.4,
        twins: true,
        seed: 7,
        scaleBar: { value: 100, unit: 'µm', lengthPx: 200, style: 'sem' },
      },
    },
    {
      name: 'low contrast JPEG, Greek μ',
      o: {
        width: 800,
        height: 600,
        grainPx: 35,
        pixelSizeUm: 0.2,
        noise: 10,
        contrast: 0.5,
        jpeg: 80,
        seed: 11,
        scaleBar: { value: 20, unit: 'μm', lengthPx: 100, style: 'overlay' },
      },
    },
  ] as const;
  for (const c of cases)
    it(
      c.name,
      async () => {
        const s = await grainImage(c.o as Parameters<typeof grainImage>[0]);
        // twin bands without lines: the classical grey path (20261127) ignores them; the learned version's twin
        // recognition leaves some of them (learned/grains.test.ts checks it with its own tolerance)
        const r = await runModel('grain-size', c.name.startsWith('twins') ? '20261127' : undefined, s.png, {});
        const m = r.measurements;
        expect(num(m.pixelSizeUm)).toBeCloseTo(s.pixelSizeUm, 6);
        expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.3);
        expect(Math.abs(num(m.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.3);
        expect(Math.abs(num(m.grainsPerMm2) / s.truth.grainsPerMm2 - 1)).toBeLessThan(0.08);
        expect(r.items.map((i) => i.type)).toEqual(expect.arrayContaining(['data-table', 'histogram', 'image']));
        expect(r.files[0].data.subarray(1, 4).toString()).toBe('PNG');
      },
      60_000,
    );
});

describe('porosity on synthetic micrographs', () => {
  it('area fraction within 0.5 pp and pore count within 8 %', async () => {
    for (const o of [
      { count: 80, noise: 6, illumination: 0.3, seed: 5 },
      { count: 40, noise: 4, seed: 9, maxR: 12 },
    ]) {
      const s = await poreImage({
        width: 800,
        height: 600,
        pixelSizeUm: 1,
        ...o,
        scaleBar: { value: 200, unit: 'µm', lengthPx: 200, style: 'overlay' },
      });
      const m = (await runModel('porosity', undefined, s.png, {})).measurements;
      expect(Math.abs(num(m.areaFractionPercent) - s.truth.areaFractionPercent)).toBeLessThan(0.5);
      expect(Math.abs(num(m.poreCount) / s.truth.poreCount - 1)).toBeLessThan(0.08);
    }
  }, 60_000);
  it('measures from a user mask instead of its own segmentation', async () => {
    const s = await poreImage({ width: 300, height: 200, count: 0 });
    const mask = new Uint8Array(300 * 200);
    for (let y = 50; y < 100; y++) for (let x = 50; x < 150; x++) mask[y * 300 + x] = 255; // 5000 px = 8.33 %
    const png = await sharp(Buffer.from(mask), { raw: { width: 300, height: 200, channels: 1 } })
      .png()
      .toBuffer();
    const m = (await runModel('porosity', undefined, s.png, {}, { masks: png })).measurements;
    expect(m.poreCount).toBe(1);
    expect(num(m.areaFractionPercent)).toBeCloseTo((100 * 5000) / 60000, 6);
  });
});

describe('layer thickness on synthetic cross-sections', () => {
  for (const tilt of [0, 3])
    it(`tilt ${tilt}°`, async () => {
      const s = await layerImage({
        width: 800,
        height: 600,
        tiltDeg: tilt,
        noise: 6,
        pixelSizeUm: 0.5,
        seed: 3 + tilt,
        scaleBar: { value: 100, unit: 'µm', lengthPx: 200, style: 'sem' },
      });
      const m = (await runModel('layer-thickness', undefined, s.png, {})).measurements;
      expect(Math.abs(num(m.meanThicknessUm) / s.truth.meanThicknessUm - 1)).toBeLessThan(0.03);
      expect(Math.abs(num(m.minThicknessUm) / s.truth.minThicknessUm - 1)).toBeLessThan(0.12);
      expect(Math.abs(num(m.maxThicknessUm) / s.truth.maxThicknessUm - 1)).toBeLessThan(0.12);
    }, 60_000);
});

describe('cracks on a textured surface', () => {
  it('count ±1 and total length within 10 %', async () => {
    const s = await crackImage({
      width: 900,
      height: 700,
      cracks: 8,
      noise: 5,
      pixelSizeUm: 4,
      scaleBar: { value: 1, unit: 'mm', lengthPx: 250, style: 'sem' },
    });
    const m = (await runModel('cracks', undefined, s.png, {})).measurements;
    expect(Math.abs(num(m.crackCount) - s.truth.crackCount)).toBeLessThanOrEqual(1);
    expect(Math.abs(num(m.totalLengthUm) / s.truth.totalLengthUm - 1)).toBeLessThan(0.1);
  }, 60_000);
  it('honours a crop', async () => {
    const s = await crackImage({ width: 600, height: 400, cracks: 4, pixelSizeUm: 1 });
    const r = await runModel('cracks', undefined, s.png, {}, { crop: { x: 0, y: 0, width: 300, height: 400 } });
    expect(r.measurements.analysedWidthPx).toBe(300);
    expect(num(r.measurements.crackCount)).toBeLessThanOrEqual(3);
  }, 60_000);
});

describe('16-bit TIFF and real micrograph', () => {
  it('measures a 12-bit-in-16-bit grey TIFF like its 8-bit source', async () => {
    const s = await grainImage({ width: 700, height: 500, grainPx: 40, pixelSizeUm: 0.5, noise: 5, seed: 31 });
    const raw = await sharp(s.png).greyscale().raw().toBuffer();
    const u16 = new Uint16Array(raw.length);
    for (let i = 0; i < raw.length; i++) u16[i] = raw[i] * 16; // 12-bit detector range
    const tif = encodeGreyTiff(u16, 700, 500);
    expect((await sharp(tif).metadata()).depth).toBe('ushort');
    const m = (await runModel('grain-size', undefined, tif, { magnification: { unit: 'µm', number: 50, length: 100 } })).measurements;
    expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.3);
  }, 60_000);
  const nist = '/work/shared/real/nist-steel-ferrite';
  it.skipIf(!existsSync(nist + '.tif'))(
    'NIST ferritic steel within its reference tolerances',
    async () => {
      const ref = JSON.parse(readFileSync(nist + '.json', 'utf8'));
      const m = (
        await runModel('grain-size', undefined, readFileSync(nist + '.tif'), {
          magnification: { unit: 'µm', number: ref.pixelSizeUm * 1000, length: 1000 },
        })
      ).measurements;
      expect(Math.abs(num(m.astmGPlanimetric) - ref.astmGPlanimetric)).toBeLessThan(ref.tolerances.astmGPlanimetric);
      expect(Math.abs(num(m.astmGIntercept) - ref.astmGIntercept)).toBeLessThan(ref.tolerances.astmGIntercept);
      expect(Math.abs(num(m.grainsPerMm2) / ref.grainsPerMm2 - 1)).toBeLessThan(ref.tolerances.grainsPerMm2);
    },
    60_000,
  );
});
