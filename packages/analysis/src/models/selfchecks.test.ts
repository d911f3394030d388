import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { grainImage } from '../synth/index.js';
import { encodeGreyTiff } from '../synth/tiff.js';
import { runModel } from '../registry.js';
import { terminateOcr } from '../ocr.js';

afterAll(() => terminateOcr());
const V = '20261123' as const;
const num = (v: unknown) => Number(v);
const calibrated = { magnification: { unit: 'µm' as const, number: 50, length: 100 } };

describe('self-checks instead of confident nonsense (20261123)', () => {
  it('refuses a blank image, in the run language', async () => {
    const black = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await expect(runModel('grain-size', V, black, calibrated)).rejects.toMatchObject({ code: 'BLANK_IMAGE' });
    await expect(runModel('porosity', V, black, calibrated, { lang: 'de' })).rejects.toThrow(/leer oder nahezu gleichförmig/);
    // the older version still measures it (its jobs stay reproducible)
    await expect(runModel('grain-size', '20250101', black, calibrated)).resolves.toBeTruthy();
  }, 60_000);

  it('refuses a crop too small to measure, and a grain field with too few grains', async () => {
    const s = await grainImage({ width: 600, height: 400, grainPx: 60, pixelSizeUm: 0.5, noise: 4, seed: 7 });
    await expect(runModel('grain-size', V, s.png, calibrated, { crop: { x: 100, y: 100, width: 10, height: 10 } })).rejects.toMatchObject({
      code: 'IMAGE_TOO_SMALL',
    });
    await expect(runModel('grain-size', V, s.png, calibrated, { crop: { x: 100, y: 100, width: 48, height: 48 } })).rejects.toMatchObject({
      code: 'TOO_FEW_FEATURES',
    });
  }, 60_000);

  it('reads a 32-bit float TIFF (as ImageJ saves) like its 8-bit source', async () => {
    const s = await grainImage({ width: 700, height: 500, grainPx: 40, pixelSizeUm: 0.5, noise: 5, seed: 31 });
    const raw = await sharp(s.png).greyscale().raw().toBuffer();
    const f32 = new Float32Array(raw.length);
    for (let i = 0; i < raw.length; i++) f32[i] = 0.001 + raw[i] / 12_000; // an arbitrary physical range
    const tif = encodeGreyTiff(f32, 700, 500);
    expect((await sharp(tif).metadata()).depth).toBe('float');
    const m = (await runModel('grain-size', V, tif, calibrated)).measurements;
    expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.3);
    expect(Math.abs(num(m.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.3);
  }, 60_000);

  it('states the E112 method and warns below 50 grains', async () => {
    const s = await grainImage({ width: 400, height: 300, grainPx: 70, pixelSizeUm: 0.5, noise: 4, seed: 3 });
    const r = await runModel('grain-size', V, s.png, calibrated);
    const messages = r.items.filter((i) => i.type === 'message') as Array<{ title: string; status: string }>;
    expect(messages.map((m) => m.title)).toContain('Method: ASTM E112-13');
    expect(messages.find((m) => m.title === 'Fewer than 50 counts (ASTM E112)')?.status).toBe('warning');
    expect(num(r.measurements.interceptCount)).toBeGreaterThan(0);
  }, 60_000);

  it('the layer model refuses an image without a layer', async () => {
    const s = await grainImage({ width: 600, height: 400, grainPx: 40, pixelSizeUm: 0.5, noise: 4, seed: 11 });
    await expect(runModel('layer-thickness', V, s.png, calibrated)).rejects.toMatchObject({ code: 'NO_LAYER_FOUND' });
  }, 60_000);
});

describe('calibration order (20261123): user, metadata, scale bar, explicit settings, none', () => {
  it('the user value wins over a scale bar; an uncalibrated result gives counts but no lengths', async () => {
    const s = await grainImage({
      width: 640,
      height: 480,
      grainPx: 40,
      pixelSizeUm: 0.5,
      noise: 4,
      seed: 5,
      scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
    });
    const user = await runModel('grain-size', V, s.png, {}, { pixelSizeUm: 0.25 });
    expect(user.measurements).toMatchObject({ calibrationSource: 'user', pixelSizeUm: 0.25 });
    const bar = await runModel('grain-size', V, s.png, {}, { settingsCalibration: false });
    expect(bar.measurements.calibrationSource).toBe('scale-bar');
    await expect(runModel('grain-size', V, s.png, {}, { pixelSizeUm: -1 })).rejects.toMatchObject({ code: 'INVALID_SETTINGS' });

    const plain = await grainImage({ width: 640, height: 480, grainPx: 40, pixelSizeUm: 0.5, noise: 4, seed: 5 });
    const none = await runModel('grain-size', V, plain.png, {}, { settingsCalibration: false });
    expect(none.measurements.calibrationSource).toBe('none');
    expect(none.measurements.astmGPlanimetric).toBeNull();
    expect(none.measurements.meanInterceptUm).toBeNull();
    expect(num(none.measurements.grainCount)).toBeGreaterThan(20);
    const msg = none.items.find((i) => i.type === 'message' && i.code === 'CALIBRATION_MISSING');
    expect(msg).toBeTruthy();
    const rows = none.items.flatMap((i) => (i.type === 'data-table' ? i.rows : []));
    expect(rows.some((r) => /µm|mm/.test(r.unit))).toBe(false);
    // the settings' magnification still calibrates when it was chosen (the default for callers that do not say)
    expect((await runModel('grain-size', V, plain.png, calibrated)).measurements.calibrationSource).toBe('settings');
  }, 90_000);

  it('an as-large-as grain in an uncalibrated image is named by its area ratio, with no area or G (E930)', async () => {
    // small grains with one large uniform grain in the middle: 50× the median area
    const s = await grainImage({ width: 640, height: 480, grainPx: 24, seed: 3, noise: 3, scaleBar: null });
    const { data, info } = await sharp(s.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) if ((x - 320) ** 2 + (y - 240) ** 2 < 95 ** 2) data[y * info.width + x] = 165;
    const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toBuffer();
    const ala = (r: Awaited<ReturnType<typeof runModel>>) =>
      r.items.find((i) => i.type === 'message' && /^ALA/.test(i.title)) as { content: string } | undefined;
    for (const lang of ['en', 'de'] as const) {
      const none = await runModel('grain-size', undefined, png, {}, { settingsCalibration: false, lang });
      expect(none.measurements.calibrationSource).toBe('none');
      const m = ala(none);
      expect(m?.content).toMatch(lang === 'en' ? /^The largest grain is \d+× the median grain area/ : /^Das größte Korn ist \d+× so groß/);
      expect(m?.content).not.toMatch(/µm|ALA G/);
      expect(none.measurements.alaAstmG).toBeNull();
    }
    // calibrated: its area and ALA G are given
    const cal = await runModel('grain-size', undefined, png, {}, { pixelSizeUm: 0.5 });
    expect(ala(cal)?.content).toMatch(/^The largest grain \([\d,.]+ µm², ALA G [\d.]+\) is \d+× the median/);
  }, 90_000);

  it('a TIFF with ImageJ calibration is measured at its pixel size', async () => {
    const s = await grainImage({ width: 700, height: 500, grainPx: 40, pixelSizeUm: 0.5, noise: 5, seed: 31 });
    const raw = await sharp(s.png).greyscale().raw().toBuffer();
    const tif = encodeGreyTiff(new Uint8Array(raw), 700, 500, { description: 'ImageJ=1.54f\nunit=micron\n', resolution: [2, 1], resolutionUnit: 1 });
    const m = (await runModel('grain-size', V, tif, {}, { settingsCalibration: false })).measurements;
    expect(m).toMatchObject({ calibrationSource: 'metadata', pixelSizeUm: 0.5 });
    expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.3);
  }, 60_000);
});

describe("the model's own segmentation as the mask editor's starting mask (20261123)", () => {
  it('writes segmentation.png over the whole image, and measuring it as a mask gives the same grains', async () => {
    const s = await grainImage({
      width: 640,
      height: 480,
      grainPx: 40,
      pixelSizeUm: 0.5,
      noise: 4,
      seed: 9,
      scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
    });
    const own = await runModel('grain-size', V, s.png, {});
    const file = own.files.find((f) => f.filename === 'segmentation.png');
    expect(file).toBeTruthy();
    const meta = await sharp(file!.data).metadata();
    const full = await sharp(s.png).metadata();
    expect([meta.width, meta.height]).toEqual([full.width, full.height]);
    const again = await runModel('grain-size', V, s.png, {}, { masks: file!.data });
    expect(again.files.some((f) => f.filename === 'segmentation.png')).toBe(false);
    // the same boundaries: the intercept count of the mask run matches the model's own
    expect(Math.abs(num(again.measurements.astmGIntercept) - num(own.measurements.astmGIntercept))).toBeLessThan(0.15);
  }, 60_000);
});
