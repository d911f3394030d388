import { CURRENT_VERSION, VERSIONS } from '@lamella/analysis/versions';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Db } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

type Json = Record<string, unknown>;

const rgb = {
  type: 'object',
  properties: {
    r: { type: 'number', minimum: 0, maximum: 1 },
    g: { type: 'number', minimum: 0, maximum: 1 },
    b: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['r', 'g', 'b'],
};

/**
 * Used only when neither the model version nor packages/analysis knows the model (an admin-added model):
 * the model-parameter defaults of back-office.md §9. Colours have no stated values; none are defaulted.
 */
export const FALLBACK_SCHEMA: Json = {
  type: 'object',
  properties: {
    magnification: {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['µm', 'mm', 'nm'], default: 'µm' },
        number: { type: 'number', default: 100 },
        length: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
    },
    modelVersion: { type: 'string', enum: [...VERSIONS], default: CURRENT_VERSION },
    measurementType: { type: 'string', enum: ['LIKE_GRAIN', 'LIKE_LAYER', 'LIKE_CRACKS'] },
    segmentation: {
      type: 'object',
      properties: {
        maxPoints: { type: 'integer', default: 64 },
        minScore: { type: 'number', default: 0.8 },
        maxScore: { type: 'number', default: 0.95 },
        maxIterations: { type: 'integer', default: 64 },
        maskErosion: { type: 'number', default: 40 },
      },
    },
    layer: {
      type: 'object',
      properties: {
        histogramBins: { type: 'integer', default: 10 },
        blurring: { type: 'number', default: 200 },
        threshold: { type: 'number', default: 0.5 },
        cutBottom: { type: 'number', default: 50 },
      },
    },
    grain: { type: 'object', properties: { countTwins: { type: 'boolean', default: false } } },
    colours: { type: 'object', properties: { cracks: rgb, feature: rgb, resin: rgb, boundary: rgb } },
  },
};

/** The defaults written in a JSON Schema (`default` of each property, objects walked). */
export function defaultsOf(schema: Json): Json {
  const out: Json = {};
  const props = (schema.properties ?? {}) as Record<string, Json>;
  for (const [k, p] of Object.entries(props)) {
    if (p.default !== undefined) out[k] = structuredClone(p.default);
    if (p.type === 'object' && p.properties) {
      const inner = defaultsOf(p);
      if (Object.keys(inner).length) out[k] = deepMerge((out[k] as Json) ?? {}, inner);
    }
  }
  return out;
}

const isPlain = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge, right wins: objects merge key by key; arrays and scalars are replaced. */
export function deepMerge(...layers: Json[]): Json {
  const out: Json = {};
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer ?? {})) {
      out[k] = isPlain(v) && isPlain(out[k]) ? deepMerge(out[k] as Json, v) : structuredClone(v);
    }
  }
  return out;
}

export interface ModelSettingsSource {
  modelId: string;
  version: string;
  schema: Json;
  defaults: Json;
  /** Where the schema came from: the model version row, the analysis registry, or the §9 fallback. */
  source: 'model_version' | 'analysis' | 'fallback';
}

type AnalysisModule = { getModel(name: string): { settingsSchema: Json; defaultSettings: Json } };
/** Loaded once, on first use (it brings image libraries); a non-literal specifier keeps it out of this package's type check. */
const loadAnalysis = once(() => {
  const spec = '@lamella/analysis';
  return (import(spec) as Promise<AnalysisModule>).catch(() => null);
});

function once<T>(fn: () => T): () => T {
  const memo: { value?: T } = {};
  return () => {
    if (!('value' in memo)) memo.value = fn();
    return memo.value as T;
  };
}

/**
 * The settings schema and defaults of a model: `model_versions.settings_schema` of the model's current version,
 * else the analysis registry (`getModel(internalName)`), else the §9 fallback.
 */
export async function modelSettingsSource(db: Db, modelId: string): Promise<ModelSettingsSource | null> {
  const m = await repo.findModel(db, modelId);
  if (!m) return null;
  const v = await repo.findVersion(db, m.id, m.version);
  if (v?.settingsSchema)
    return {
      modelId: m.id,
      version: m.version,
      schema: v.settingsSchema,
      defaults: v.defaultSettings ?? defaultsOf(v.settingsSchema),
      source: 'model_version',
    };
  const mod = await loadAnalysis();
  if (mod) {
    try {
      const a = mod.getModel(m.internalName);
      return {
        modelId: m.id,
        version: m.version,
        schema: a.settingsSchema,
        defaults: structuredClone(a.defaultSettings) as Json,
        source: 'analysis',
      };
    } catch {
      // not a built-in model
    }
  }
  return { modelId: m.id, version: m.version, schema: FALLBACK_SCHEMA, defaults: defaultsOf(FALLBACK_SCHEMA), source: 'fallback' };
}

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** null when valid, else Ajv's errors as {instancePath, message} (back-office §7 validate). */
export function validateAgainst(schema: Json, data: unknown): Array<{ instancePath: string; message: string }> | null {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    const { $schema: _ignored, ...rest } = schema;
    fn = ajv.compile(rest);
    compiled.set(key, fn);
  }
  if (fn(data)) return null;
  return (fn.errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? `${e.message}: ${(e.params as { additionalProperty?: string }).additionalProperty}`
        : (e.message ?? 'invalid'),
  }));
}
