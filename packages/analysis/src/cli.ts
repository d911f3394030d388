// npm run -s analyze -- --model <name> [--version V] [--settings file.json] [--out dir] [--lang en|de] [--crop x,y,w,h] [--mask mask.png]
//   [--pixel-size µm/px] <image>
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getModel } from './registry.js';
import { terminateOcr } from './ocr.js';
import { VERSIONS, type ModelVersion, type RunOptions } from './types.js';

function usage(): never {
  process.stderr.write(
    `usage: analyze --model <scale-bar|grain-size|layer-thickness|cracks|porosity> [--version ${VERSIONS.join('|')}] [--settings file.json] [--out dir] [--lang en|de] [--crop x,y,w,h] [--mask mask.png] [--pixel-size µm/px] <image>\n`,
  );
  process.exit(1);
}

async function main() {
  const args = process.argv.slice(2);
  const opt: Record<string, string> = {};
  const pos: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [k, v] = a.includes('=') ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a.slice(2), args[++i]];
      if (v === undefined) usage();
      opt[k] = v;
    } else pos.push(a);
  }
  if (!opt.model || pos.length !== 1) usage();
  const model = getModel(opt.model);
  const settings = opt.settings ? JSON.parse(readFileSync(opt.settings, 'utf8')) : {};
  const ro: RunOptions = { lang: opt.lang === 'de' ? 'de' : 'en' };
  if (opt.version) ro.version = opt.version as ModelVersion;
  if (opt.crop) {
    const [x, y, width, height] = opt.crop.split(',').map(Number);
    ro.crop = { x, y, width, height };
  }
  if (opt.mask) ro.masks = readFileSync(opt.mask);
  if (opt['pixel-size'] !== undefined) {
    const px = Number(opt['pixel-size']);
    if (!(px > 0)) usage();
    ro.pixelSizeUm = px;
  }
  const image = readFileSync(pos[0]);
  const r = await model.run(image, settings, ro);
  const out = opt.out ?? mkdtempSync(path.join(os.tmpdir(), 'lamella-analysis-'));
  mkdirSync(out, { recursive: true });
  const paths = new Map<string, string>();
  for (const f of r.files) {
    const p = path.resolve(out, f.filename);
    writeFileSync(p, f.data);
    paths.set(f.filename, p);
  }
  const items = r.items.map((it) => (it.type === 'image' ? { ...it, filename: paths.get(it.filename) ?? it.filename } : it));
  process.stdout.write(JSON.stringify({ model: r.model, version: r.version, measurements: r.measurements, items }, null, 2) + '\n');
}

main()
  .then(() => terminateOcr())
  .then(() => process.exit(0))
  .catch(async (e: unknown) => {
    const err = e as { code?: string; message?: string };
    process.stderr.write(`analyze: ${err.code ? err.code + ': ' : ''}${err.message ?? String(e)}\n`);
    await terminateOcr().catch(() => undefined);
    process.exit(1);
  });
