import Ajv from 'ajv';
import { AnalysisError } from './errors.js';
import { CURRENT_VERSION, VERSIONS, type Settings } from './types.js';

const rgb = (r: number, g: number, b: number) => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    r: { type: 'number', minimum: 0, maximum: 1 },
    g: { type: 'number', minimum: 0, maximum: 1 },
    b: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['r', 'g', 'b'],
  default: { r, g, b },
});

/**
 * Model-parameter schema (back-office.md §9). Colour defaults: cracks red (1,0,0), feature (pores,
 * coating) cyan (0,0.8,1), resin amber (1,0.75,0), grain boundary red (1,0.1,0.1).
 */
export function buildSettingsSchema(measurementType: Settings['measurementType']): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    additionalProperties: true,
    properties: {
      magnification: {
        type: 'object',
        additionalProperties: false,
        properties: {
          unit: { type: 'string', enum: ['µm', 'mm', 'nm'], default: 'µm' },
          number: { type: 'number', exclusiveMinimum: 0, default: 100 },
          length: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
        },
        default: { unit: 'µm', number: 100, length: 100 },
      },
      modelVersion: {
        type: 'string',
        enum: [...VERSIONS],
        default: CURRENT_VERSION,
      },
      measurementType: { type: 'string', enum: ['LIKE_GRAIN', 'LIKE_LAYER', 'LIKE_CRACKS'], default: measurementType },
      segmentation: {
        type: 'object',
        additionalProperties: false,
        properties: {
          maxPoints: { type: 'integer', minimum: 1, default: 64 },
          minScore: { type: 'number', minimum: 0, maximum: 1, default: 0.8 },
          maxScore: { type: 'number', minimum: 0, maximum: 1, default: 0.95 },
          maxIterations: { type: 'integer', minimum: 1, default: 64 },
          maskErosion: { type: 'integer', minimum: 0, default: 40 },
        },
        default: { maxPoints: 64, minScore: 0.8, maxScore: 0.95, maxIterations: 64, maskErosion: 40 },
      },
      layer: {
        type: 'object',
        additionalProperties: false,
        properties: {
          histogramBins: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
          blurring: { type: 'integer', minimum: 0, default: 200 },
          threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
          cutBottom: { type: 'integer', minimum: 0, default: 50 },
        },
        default: { histogramBins: 10, blurring: 200, threshold: 0.5, cutBottom: 50 },
      },
      grain: {
        type: 'object',
        additionalProperties: false,
        properties: { countTwins: { type: 'boolean', default: false } },
        default: { countTwins: false },
      },
      colours: {
        type: 'object',
        additionalProperties: false,
        properties: { cracks: rgb(1, 0, 0), feature: rgb(0, 0.8, 1), resin: rgb(1, 0.75, 0), boundary: rgb(1, 0.1, 0.1) },
        default: {
          cracks: { r: 1, g: 0, b: 0 },
          feature: { r: 0, g: 0.8, b: 1 },
          resin: { r: 1, g: 0.75, b: 0 },
          boundary: { r: 1, g: 0.1, b: 0.1 },
        },
      },
    },
  };
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorFor(schema: Record<string, unknown>) {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(schema);
    validators.set(key, v);
  }
  return v;
}

export interface SettingsError {
  instancePath: string;
  message: string;
}

/** Ajv validation; returns `[{instancePath, message}]` or null when valid. Does not modify `settings`. */
export function validateSettings(schema: Record<string, unknown>, settings: unknown): SettingsError[] | null {
  const copy = settings === undefined ? {} : JSON.parse(JSON.stringify(settings));
  const v = validatorFor(schema);
  if (v(copy)) return null;
  return (v.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? 'invalid' }));
}

/** Validates and fills defaults; throws AnalysisError INVALID_SETTINGS. */
export function resolveSettings(schema: Record<string, unknown>, settings: unknown): Settings {
  const copy = settings == null ? {} : JSON.parse(JSON.stringify(settings));
  const v = validatorFor(schema);
  if (!v(copy)) {
    const errs = (v.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? 'invalid' }));
    throw new AnalysisError('INVALID_SETTINGS', 'Invalid settings: ' + errs.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; '), errs);
  }
  return copy as Settings;
}

export function defaultSettings(schema: Record<string, unknown>): Settings {
  return resolveSettings(schema, {});
}
