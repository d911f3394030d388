// temporary experiment harness (colour2 helper) — deleted at the end
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { runModel } from '../../packages/analysis/src/registry.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import { initCv } from '../../packages/analysis/src/cv.js';
import { tintGrainImage } from '../../packages/analysis/src/synth/tint.js';
await initCv();
const F = (process.env.F ?? '0.5,1,2').split(',').map(Number);
const cases: { name: string; data: Buffer; w: number; h: number; px: number; ref: number }[] = [];
for (const n of ['tbm-10-y256-x512', 'tbm-12-y256-x512', 'tbm-14-y256-x0', 'tbm-22-y0-x0', 'tbm-25-y0-x1024']) {
  if (process.env.NOTBM) break;
  const j = JSON.parse(readFileSync(`/work/shared/real/${n}.json`, 'utf8'));
  const { data, info } = await sharp(readFileSync(`/work/shared/real/${n}.png`)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  cases.push({ name: n, data, w: info.width, h: info.height, px: 1, ref: j.astmGIntercept });
}
for (const [gp, mot, seed] of [[16, 0.12, 3], [32, 0.15, 4], [64, 0.15, 5]] as const) {
  if (process.env.NOSYN) break;
  const s = await tintGrainImage({ width: 480, height: 360, grainPx: gp, seed, mottle: mot, noise: 2 });
  const { data, info } = await sharp(s.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  cases.push({ name: `tint-${gp}`, data, w: info.width, h: info.height, px: 1, ref: s.truth.astmGIntercept });
}
const V = (process.env.V ?? '20261126') as never;
const sum: Record<string, number[]> = {};
for (const c of cases) {
  const row: string[] = [c.name.padEnd(18), c.ref.toFixed(2)];
  let g1 = NaN;
  for (const f of [1, ...F.filter((x) => x !== 1)]) {
    const img = sharp(c.data, { raw: { width: c.w, height: c.h, channels: 3 } });
    const png = await (f === 1 ? img : img.resize(Math.round(c.w * f), Math.round(c.h * f), { kernel: f < 1 ? 'lanczos3' : 'cubic' })).png({ compressionLevel: 1 }).toBuffer();
    const t0 = Date.now();
    let g = NaN;
    try {
      const r = await runModel('grain-size', V, png, {}, { pixelSizeUm: c.px / f });
      g = Number(r.measurements.astmGIntercept);
      if (r.measurements.segmentation !== 'colour') row.push('GREY!');
    } catch (e) {
      row.push(String((e as { code?: string }).code));
    }
    if (f === 1) {
      g1 = g;
      row.push(`1x ${g.toFixed(2)} (${(g - c.ref >= 0 ? '+' : '') + (g - c.ref).toFixed(2)})`);
    } else row.push(`${f}x ${(g - g1 >= 0 ? '+' : '') + (g - g1).toFixed(2)}`);
    (sum[f] ??= []).push(f === 1 ? g - c.ref : g - g1);
    row.push(`${Date.now() - t0}ms`);
  }
  console.log(row.join('  '));
}
for (const [f, v] of Object.entries(sum)) console.log(`f=${f} maxabs ${Math.max(...v.map(Math.abs)).toFixed(2)}`);
await terminateOcr();
