import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { GOLDEN_FILE, VERSIONS, goldenCases, goldenOf, type Golden } from './golden.js';
import { terminateOcr } from './ocr.js';

afterAll(() => terminateOcr());
const cases = goldenCases();
const golden: Golden = existsSync(GOLDEN_FILE) ? JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) : {};

// every shipped version reproduces its frozen outputs on every sample (skipped where ../shared/samples is absent)
describe.skipIf(!cases.length)('golden outputs of every shipped version on the samples', () => {
  it('has a frozen entry for every version and sample', () => {
    for (const v of VERSIONS) for (const c of cases) expect(golden[v]?.[c.sample], `${v} ${c.sample}`).toBeDefined();
  });
  for (const v of VERSIONS)
    for (const c of cases)
      it(`${v} ${c.model} ${c.sample}`, async () => {
        expect(await goldenOf(c, v)).toEqual(golden[v][c.sample]);
      });
});
