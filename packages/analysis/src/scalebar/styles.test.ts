// Scale bars drawn in every style, polarity, position and size on a sample micrograph and a synthetic one, at
// several resolutions: each is found and read within 1 % (bare bars also on a dark phase, among pores and with a
// label a few pixels high); the samples' micrographs give no bar; the strip, box or
// plate is left out of every model's analysed area; an unreadable label is not used and the result says so.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { detectScaleBar } from '../scalebar.js';
import { terminateOcr } from '../ocr.js';
import { drawScaleBar, resampleGray, type DrawnBarSpec } from '../synth/scalebars.js';
import { grainImage } from '../synth/index.js';
import { encodePng, type Gray } from '../image.js';
import { runModel } from '../registry.js';

afterAll(() => terminateOcr());
const SAMPLES = '/work/shared/samples';
const UM: Record<string, number> = { µm: 1, μm: 1, um: 1, nm: 0.001, mm: 1000 };

async function grey(png: Buffer, height?: number): Promise<Gray> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const h = height ?? info.height;
  const out = new Uint8Array(info.width * h);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels];
  return { width: info.width, height: h, data: out };
}

async function check(base: Gray, spec: DrawnBarSpec, scale: number) {
  const d = await drawScaleBar(base.data, base.width, base.height, spec);
  const r = await resampleGray(d.data, d.width, d.height, scale);
  const sb = await detectScaleBar({ width: r.width, height: r.height, data: r.data }, '20261201');
  const truth = (spec.value * UM[spec.unit]) / (spec.lengthPx * r.factor);
  return { sb, truth, drawn: d, r };
}

describe('scale bars of every style', () => {
  let synthetic: Gray;
  it('reads each style and label position on a synthetic micrograph', async () => {
    synthetic = await grey((await grainImage({ width: 1280, height: 960, grainPx: 50, noise: 6, seed: 5, scaleBar: null })).png);
    const cases: DrawnBarSpec[] = [
      { style: 'strip-dark', value: 100, unit: 'µm', lengthPx: 220, label: 'above' },
      { style: 'plate-dark', value: 20, unit: 'μm', lengthPx: 200, corner: 'br', label: 'above' },
      { style: 'strip-light-ticks', value: 2, unit: 'µm', lengthPx: 240, label: 'below' },
      { style: 'strip-light-ruler', value: 10.0, unit: 'um', lengthPx: 250, label: 'right' },
      { style: 'box-light', value: 500, unit: 'nm', lengthPx: 200, corner: 'tl', label: 'left' },
      { style: 'bare-light', value: 1, unit: 'mm', lengthPx: 230, corner: 'tr', label: 'below' },
      { style: 'bare-dark', value: 2.5, unit: 'µm', comma: true, lengthPx: 210, corner: 'bl', label: 'above' },
    ];
    for (const spec of cases) {
      const { sb, truth } = await check(synthetic, spec, 1);
      expect(sb.found, spec.style).toBe(true);
      expect(Math.abs(sb.pixelSizeUm! / truth - 1), spec.style).toBeLessThanOrEqual(0.01);
    }
  }, 240_000);

  it('reads them resampled from 0.5x to 3x', async () => {
    const cases: [DrawnBarSpec, number][] = [
      [{ style: 'strip-light-ticks', value: 500, unit: 'nm', lengthPx: 240, label: 'above' }, 0.5],
      [{ style: 'box-light', value: 50, unit: 'µm', lengthPx: 220, corner: 'br', label: 'above' }, 0.5],
      [{ style: 'plate-dark', value: 2, unit: 'µm', lengthPx: 200, corner: 'tl', label: 'below' }, 2],
      [{ style: 'bare-light', value: 100, unit: 'µm', lengthPx: 240, corner: 'br', label: 'above' }, 3],
    ];
    for (const [spec, scale] of cases) {
      const { sb, truth } = await check(synthetic, spec, scale);
      expect(sb.found, `${spec.style} ${scale}x`).toBe(true);
      expect(Math.abs(sb.pixelSizeUm! / truth - 1), `${spec.style} ${scale}x`).toBeLessThanOrEqual(0.01);
    }
  }, 240_000);

  it.skipIf(!existsSync(SAMPLES))(
    'reads bars drawn on a sample, finds none on the samples without one, and grain-noisy at 2.5x',
    async () => {
      const noBar = await grey(readFileSync(`${SAMPLES}/grain-no-bar.png`));
      const { sb, truth } = await check(noBar, { style: 'strip-light-ruler', value: 20, unit: 'µm', lengthPx: 180, label: 'right' }, 1);
      expect(sb.found).toBe(true);
      expect(Math.abs(sb.pixelSizeUm! / truth - 1)).toBeLessThanOrEqual(0.01);
      expect((await detectScaleBar(noBar, '20261201')).found).toBe(false);
      const pores = await grey(readFileSync(`${SAMPLES}/pores-low.png`), 900);
      expect((await detectScaleBar(pores, '20261201')).found).toBe(false);
      // grain-noisy upscaled 2.5x (3200x2615): its white-on-black strip bar, 200 px at 1x
      const noisy = await grey(readFileSync(`${SAMPLES}/grain-noisy.png`));
      const up = await resampleGray(noisy.data, noisy.width, noisy.height, 2.5);
      const big = await detectScaleBar({ width: up.width, height: up.height, data: up.data }, '20261201');
      expect(big.found).toBe(true);
      expect(Math.abs(big.pixelSizeUm! / (0.5 / up.factor) - 1)).toBeLessThanOrEqual(0.01);
    },
    240_000,
  );

  it.skipIf(!existsSync(SAMPLES))(
    'reads bare bars by their local contrast: a black bar on a dark phase, a label among pores, a small label at 0.5x',
    async () => {
      const sample = async (name: string, height: number) => grey(readFileSync(`${SAMPLES}/${name}.png`), height);
      const layer = await sample('layer-thick-sem', 960);
      const pores = await sample('pores-low', 900);
      const grains = await sample('grain-no-bar', 1024);
      const cases: [Gray, DrawnBarSpec, number][] = [
        // the dark layer around the bar is 20-45, darker than the 45 a black overlay is taken as
        [layer, { style: 'bare-dark', value: 2, unit: 'μm', lengthPx: 237, corner: 'tr', label: 'left' }, 1],
        [layer, { style: 'bare-dark', value: 2, unit: 'μm', lengthPx: 237, corner: 'tl', label: 'below' }, 2],
        // black pores of nearly the label's tone touch its letters
        [pores, { style: 'bare-dark', value: 500, unit: 'nm', lengthPx: 308, corner: 'br', label: 'above' }, 1],
        [pores, { style: 'bare-dark', value: 500, unit: 'nm', lengthPx: 308, corner: 'bl', label: 'right' }, 2],
        // 7 px high text, lighter than the grains by little
        [grains, { style: 'bare-light', value: 2.5, unit: 'µm', comma: true, lengthPx: 154, corner: 'br', label: 'above' }, 0.5],
      ];
      for (const [base, spec, scale] of cases) {
        const { sb, truth } = await check(base, spec, scale);
        expect(sb.found, `${spec.style} ${spec.corner} ${scale}x`).toBe(true);
        expect(Math.abs(sb.pixelSizeUm! / truth - 1), `${spec.style} ${spec.corner} ${scale}x`).toBeLessThanOrEqual(0.01);
      }
      // and still no bar on the micrographs themselves
      for (const g of [layer, pores, grains]) expect((await detectScaleBar(g, '20261201')).found).toBe(false);
    },
    240_000,
  );

  it('leaves the strip or box out of the analysed area, and says when a label could not be read', async () => {
    const g = await grainImage({ width: 800, height: 600, grainPx: 40, seed: 3, scaleBar: null });
    const base = await grey(g.png);
    const d = await drawScaleBar(base.data, 800, 600, { style: 'strip-light-ticks', value: 50, unit: 'µm', lengthPx: 160, label: 'above' });
    const png = await encodePng(d.data, d.width, d.height, 1);
    const r = await runModel('porosity', undefined, png, {}, { settingsCalibration: false });
    expect(r.measurements.calibrationSource).toBe('scale-bar');
    expect(r.measurements.analysedHeightPx).toBeLessThanOrEqual(600);
    expect(r.measurements.analysedHeightPx).toBeGreaterThan(560);
    const sbr = await runModel('scale-bar', undefined, png, {});
    expect(sbr.files.map((f) => f.filename)).toContain('scale-bar.png');
    // every model calibrated from the bar shows it, outlined; a user's pixel size shows none
    expect(r.files.map((f) => f.filename)).toContain('scale-bar.png');
    expect(r.items).toContainEqual({ type: 'image', filename: 'scale-bar.png' });
    const byUser = await runModel('porosity', undefined, png, {}, { settingsCalibration: false, pixelSizeUm: 0.5 });
    expect(byUser.files.map((f) => f.filename)).not.toContain('scale-bar.png');
    // a bar whose label is no length
    const e = await drawScaleBar(base.data, 800, 600, { style: 'box-light', value: 50, unit: 'kV', lengthPx: 160, label: 'above' });
    const r2 = await runModel('porosity', undefined, await encodePng(e.data, e.width, e.height, 1), {}, { settingsCalibration: false });
    expect(r2.measurements.calibrationSource).toBe('none');
    expect(r2.items.some((i) => i.type === 'message' && /label could not be read/.test(i.content))).toBe(true);
  }, 240_000);
});
