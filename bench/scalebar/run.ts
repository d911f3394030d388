// npm run bench:scalebar [-- --quick]
// Scale bars drawn in every style (strips, plates, boxes, bare; light and dark; end ticks, rulers; label above,
// below, beside) on the samples' micrographs and on synthetic ones, resampled from 0.5x to 3x: per style and
// resolution, how many were found and how many read within 1 % of the true pixel size. Then the samples without a
// bar (and the micrographs cut from the others) must give no bar.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { detectScaleBar } from '../../packages/analysis/src/scalebar.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import { BAR_STYLES, drawScaleBar, resampleGray, type DrawnBarSpec } from '../../packages/analysis/src/synth/scalebars.js';
import { grainImage } from '../../packages/analysis/src/synth/index.js';
import type { Gray } from '../../packages/analysis/src/image.js';

const quick = process.argv.includes('--quick');
const SAMPLES = '/work/shared/samples';
const SCALES = quick ? [0.5, 1, 3] : [0.5, 0.75, 1, 1.5, 2, 3];

async function sampleMicrograph(name: string): Promise<Gray> {
  const truth = JSON.parse(readFileSync(path.join(SAMPLES, `${name}.json`), 'utf8'));
  const { data, info } = await sharp(path.join(SAMPLES, `${name}.png`))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ch = info.channels;
  const w = info.width;
  // the micrograph only, above any plate the sample carries
  const h = truth.scaleBar?.plate ? truth.scaleBar.plate[1] - 10 : truth.micrograph.height;
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = data[i * ch];
  return { width: w, height: h, data: out };
}

async function synthetic(): Promise<Gray> {
  const s = await grainImage({ width: 1280, height: 960, grainPx: 50, noise: 6, seed: 5, scaleBar: null });
  const { data, info } = await sharp(s.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = new Uint8Array(info.width * info.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels];
  return { width: info.width, height: info.height, data: out };
}

const LABELS: Pick<DrawnBarSpec, 'value' | 'unit' | 'comma'>[] = [
  { value: 100, unit: 'µm' },
  { value: 2, unit: 'μm' },
  { value: 500, unit: 'nm' },
  { value: 1, unit: 'mm' },
  { value: 20, unit: 'um' },
  { value: 2.5, unit: 'µm', comma: true },
];
const POSITIONS: Pick<DrawnBarSpec, 'corner' | 'label'>[] = [
  { corner: 'br', label: 'above' },
  { corner: 'tl', label: 'below' },
  { corner: 'bl', label: 'right' },
  { corner: 'tr', label: 'left' },
];

const bases: [string, Gray][] = [
  ['grain-no-bar', await sampleMicrograph('grain-no-bar')],
  ['layer-thick-sem', await sampleMicrograph('layer-thick-sem')],
  ['pores-low', await sampleMicrograph('pores-low')],
  ['synthetic 1280x960', await synthetic()],
];
if (quick) bases.splice(1, 2);

const rows: string[][] = [['style', 'scale', 'found', 'within 1 %', 'median ms']];
let total = 0,
  totalFound = 0,
  totalRight = 0;
const misses: string[] = [];
for (const style of BAR_STYLES)
  for (const scale of SCALES) {
    let n = 0,
      found = 0,
      right = 0;
    const ms: number[] = [];
    for (const [bi, [bname, base]] of bases.entries()) {
      const lab = LABELS[(bi + BAR_STYLES.indexOf(style)) % LABELS.length];
      const posn = POSITIONS[(bi + SCALES.indexOf(scale)) % POSITIONS.length];
      const lengthPx = Math.round(base.width * (0.15 + 0.035 * (bi % 3)));
      const spec: DrawnBarSpec = { style, lengthPx, ...lab, ...posn };
      if (style === 'strip-light-ruler') spec.label = 'right';
      const drawn = await drawScaleBar(base.data, base.width, base.height, spec);
      const r = await resampleGray(drawn.data, drawn.width, drawn.height, scale);
      const um = { µm: 1, μm: 1, um: 1, nm: 0.001, mm: 1000 }[spec.unit] ?? 1;
      const truth = (spec.value * um) / (lengthPx * r.factor);
      const t0 = performance.now();
      const sb = await detectScaleBar({ width: r.width, height: r.height, data: r.data }, '20261201');
      ms.push(performance.now() - t0);
      n++;
      if (sb.found) found++;
      const ok = sb.found && Math.abs(sb.pixelSizeUm! / truth - 1) <= 0.01;
      if (ok) right++;
      else
        misses.push(
          `${style} ${scale}x on ${bname} (${spec.value} ${spec.unit}, ${lengthPx} px, label ${spec.label}, ${spec.corner}): ` +
            (sb.found
              ? `read ${sb.value} ${sb.unit} = ${sb.lengthPx} px (true ${(lengthPx * r.factor).toFixed(1)} px)`
              : `not found; ocr "${sb.ocrText ?? ''}"`),
        );
    }
    total += n;
    totalFound += found;
    totalRight += right;
    ms.sort((a, b) => a - b);
    rows.push([style, `${scale}x`, `${found}/${n}`, `${right}/${n}`, ms[ms.length >> 1].toFixed(0)]);
  }

// no false bars: the samples' micrographs without their bars
const falseRows: string[][] = [['micrograph without a bar', 'found']];
let falseBars = 0;
for (const name of [
  'grain-no-bar',
  'grain-noisy',
  'grain-fine-sem',
  'grain-coarse-optical',
  'layer-thick-sem',
  'layer-thin',
  'cracks-few',
  'cracks-many',
  'pores-high',
  'pores-low',
]) {
  const g = await sampleMicrograph(name);
  const sb = await detectScaleBar(g, '20261201');
  if (sb.found) falseBars++;
  falseRows.push([name, sb.found ? `FALSE BAR ${sb.value} ${sb.unit} = ${sb.lengthPx} px` : 'none']);
}
await terminateOcr();

const print = (t: string[][]) => {
  const wd = t[0].map((_, i) => Math.max(...t.map((r) => r[i].length)));
  for (const r of t) console.log(r.map((c, i) => c.padEnd(wd[i])).join('  '));
};
print(rows);
console.log(`\nall: found ${totalFound}/${total}, within 1 % ${totalRight}/${total}`);
if (misses.length) console.log('\nmissed or wrong:\n' + misses.map((m) => '  ' + m).join('\n'));
console.log('');
print(falseRows);
console.log(`\nfalse bars: ${falseBars}`);
