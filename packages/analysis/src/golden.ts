// Golden outputs: every shipped version of every model, run on the samples (../shared/samples beside the repository),
// frozen in packages/analysis/golden/samples.json. A change that moves a shipped version's numbers fails
// golden.test.ts; a deliberate change ships as a new version (or, for a fix, regenerates the file with
// `npm run golden:update` and says why in the commit).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runModel } from './registry.js';
import { VERSIONS, type ModelVersion } from './types.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const GOLDEN_FILE = path.join(HERE, '..', 'golden', 'samples.json');
/** ../shared/samples beside the repository (LAMELLA_SAMPLES overrides). */
export const SAMPLES_DIR = process.env.LAMELLA_SAMPLES ?? path.resolve(HERE, '..', '..', '..', '..', 'shared', 'samples');
const MODEL: Record<string, string> = { grain: 'grain-size', layer: 'layer-thickness', cracks: 'cracks', porosity: 'porosity' };

export type GoldenValue = number | string | boolean | null;
export type Golden = Record<string, Record<string, Record<string, GoldenValue> | { error: string }>>;

export interface GoldenCase {
  sample: string;
  model: string;
  file: string;
  settings: Record<string, unknown>;
}

/** The samples and the model each one is measured with. */
export function goldenCases(dir = SAMPLES_DIR): GoldenCase[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((jf) => {
      const truth = JSON.parse(readFileSync(path.join(dir, jf), 'utf8'));
      const base = jf.replace(/\.json$/, '');
      const file = truth.file ? path.join(dir, truth.file) : path.join(dir, base + '.png');
      if (!MODEL[truth.kind] || !existsSync(file)) return [];
      const settings = truth.scaleBar ? {} : { magnification: { unit: 'µm', number: Number((truth.pixelSizeUm * 1000).toFixed(6)), length: 1000 } };
      return [{ sample: base, model: MODEL[truth.kind], file, settings }];
    });
}

/** Numbers to 6 significant digits (enough to see any change, robust to the last bits of a math library). */
export function roundValue(v: unknown): GoldenValue {
  if (typeof v === 'number') return Number.isFinite(v) ? Number(v.toPrecision(6)) : String(v);
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  return JSON.stringify(v);
}

export async function goldenOf(c: GoldenCase, version: ModelVersion): Promise<Record<string, GoldenValue> | { error: string }> {
  try {
    const r = await runModel(c.model, version, readFileSync(c.file), c.settings);
    const out: Record<string, GoldenValue> = {};
    for (const k of Object.keys(r.measurements).sort()) out[k] = roundValue(r.measurements[k]);
    return out;
  } catch (e) {
    return { error: String((e as { code?: string }).code ?? (e as Error).message) };
  }
}

export { VERSIONS };
