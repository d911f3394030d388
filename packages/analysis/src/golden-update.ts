// npm run golden:update — regenerates packages/analysis/golden/samples.json (see golden.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_FILE, SAMPLES_DIR, VERSIONS, goldenCases, goldenOf, type Golden } from './golden.js';
import { terminateOcr } from './ocr.js';

const cases = goldenCases();
if (!cases.length) throw new Error(`no samples in ${SAMPLES_DIR}`);
const out: Golden = {};
for (const v of VERSIONS) {
  out[v] = {};
  for (const c of cases) {
    out[v][c.sample] = await goldenOf(c, v);
    process.stdout.write(`${v} ${c.sample}\n`);
  }
}
mkdirSync(path.dirname(GOLDEN_FILE), { recursive: true });
writeFileSync(GOLDEN_FILE, JSON.stringify(out, null, 1) + '\n');
await terminateOcr();
