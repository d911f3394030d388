// npm run golden:update [-- VERSION ...] — regenerates packages/analysis/golden/samples.json (see golden.ts): every
// shipped version, or only the versions named (the others keep their frozen entries).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_FILE, SAMPLES_DIR, VERSIONS, goldenCases, goldenOf, type Golden } from './golden.js';
import { terminateOcr } from './ocr.js';
import type { ModelVersion } from './types.js';

const cases = goldenCases();
if (!cases.length) throw new Error(`no samples in ${SAMPLES_DIR}`);
const only = process.argv.slice(2) as ModelVersion[];
for (const v of only) if (!VERSIONS.includes(v)) throw new Error(`unknown version ${v}`);
const out: Golden = only.length && existsSync(GOLDEN_FILE) ? JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) : {};
for (const v of only.length ? only : VERSIONS) {
  out[v] = {};
  for (const c of cases) {
    out[v][c.sample] = await goldenOf(c, v);
    process.stdout.write(`${v} ${c.sample}\n`);
  }
}
mkdirSync(path.dirname(GOLDEN_FILE), { recursive: true });
writeFileSync(GOLDEN_FILE, JSON.stringify(out, null, 1) + '\n');
await terminateOcr();
