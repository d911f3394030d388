import { AnalysisError } from './errors.js';
import { buildSettingsSchema, resolveSettings } from './settings.js';
import type { ModelVersion, RunOptions, RunResult, Settings } from './types.js';
import { CURRENT_VERSION, VERSIONS } from './types.js';
import { dropLengths, prepare, type Context } from './models/common.js';
import { runScaleBar, showBarFound } from './models/scaleBarModel.js';
import { runPorosity } from './models/porosity.js';
import { runGrainSize } from './models/grainSize.js';
import { runLayer } from './models/layer.js';
import { runCracks } from './models/cracks.js';
import { applyRecipe } from './classifier/recipe.js';

export type ModelName = 'scale-bar' | 'grain-size' | 'layer-thickness' | 'cracks' | 'porosity';

export interface AnalysisModel {
  name: ModelName;
  displayName: { en: string; de: string };
  description: { en: string; de: string };
  versions: ModelVersion[];
  currentVersion: ModelVersion;
  settingsSchema: Record<string, unknown>;
  defaultSettings: Settings;
  run(image: Uint8Array | Buffer, settings?: unknown, opts?: RunOptions): Promise<RunResult>;
}

function makeModel(
  name: ModelName,
  measurementType: Settings['measurementType'],
  displayName: { en: string; de: string },
  description: { en: string; de: string },
  impl: (ctx: Context) => Promise<void>,
): AnalysisModel {
  const settingsSchema = buildSettingsSchema(measurementType);
  const defaultSettings = resolveSettings(settingsSchema, {});
  return {
    name,
    displayName,
    description,
    versions: [...VERSIONS],
    currentVersion: CURRENT_VERSION,
    settingsSchema,
    defaultSettings,
    async run(image, settings, opts = {}) {
      const s = resolveSettings(settingsSchema, settings ?? {});
      const version = opts.version ?? s.modelVersion;
      if (!VERSIONS.includes(version)) throw new AnalysisError('UNKNOWN_VERSION', `Unknown version ${version} of ${name}`);
      const ctx = await prepare(image, s, opts, version);
      // a recipe segments the image (a user mask, when given, wins: it is measured as it is)
      if (opts.recipe && !opts.masks) await applyRecipe(ctx, name, opts.recipe);
      await impl(ctx);
      if (ctx.calibrationSource === 'none') dropLengths(ctx);
      else if (ctx.calibrationSource === 'scale-bar') await showBarFound(ctx);
      return { model: name, version, items: ctx.items, measurements: ctx.measurements, files: ctx.files };
    },
  };
}

export const models: AnalysisModel[] = [
  makeModel(
    'scale-bar',
    'LIKE_GRAIN',
    { en: 'Scale bar', de: 'Maßstabsbalken' },
    {
      en: 'Finds the scale bar, reads its label by OCR and gives the pixel size.',
      de: 'Findet den Maßstabsbalken, liest die Beschriftung per OCR und bestimmt die Pixelgröße.',
    },
    runScaleBar,
  ),
  makeModel(
    'grain-size',
    'LIKE_GRAIN',
    { en: 'Grain size (ASTM E112)', de: 'Korngröße (ASTM E112)' },
    {
      en: 'Segments grains and measures the ASTM E112 / ISO 643 grain size by the planimetric (Jeffries) and the lineal intercept method.',
      de: 'Segmentiert Körner und bestimmt die Korngröße nach ASTM E112 / ISO 643 mit dem Flächenverfahren (Jeffries) und dem Linienschnittverfahren.',
    },
    runGrainSize,
  ),
  makeModel(
    'layer-thickness',
    'LIKE_LAYER',
    { en: 'Layer thickness', de: 'Schichtdicke' },
    {
      en: 'Segments resin, coating and substrate in a cross-section and measures the coating thickness perpendicular to the layer.',
      de: 'Segmentiert Einbettmittel, Schicht und Substrat im Querschliff und misst die Schichtdicke senkrecht zur Schicht.',
    },
    runLayer,
  ),
  makeModel(
    'cracks',
    'LIKE_CRACKS',
    { en: 'Cracks', de: 'Risse' },
    {
      en: 'Segments thin dark cracks, skeletonizes them and measures count, length, width and area fraction.',
      de: 'Segmentiert dünne dunkle Risse, skelettiert sie und misst Anzahl, Länge, Breite und Flächenanteil.',
    },
    runCracks,
  ),
  makeModel(
    'porosity',
    'LIKE_GRAIN',
    { en: 'Porosity (ASTM E562/E1245)', de: 'Porosität (ASTM E562/E1245)' },
    {
      en: 'Measures the dark-phase area fraction, pore count and pore size distribution.',
      de: 'Misst den Flächenanteil der dunklen Phase, die Porenanzahl und die Porengrößenverteilung.',
    },
    runPorosity,
  ),
];

export function getModel(name: string): AnalysisModel {
  const m = models.find((x) => x.name === name);
  if (!m) throw new AnalysisError('UNKNOWN_MODEL', `Unknown model "${name}"; known: ${models.map((x) => x.name).join(', ')}`);
  return m;
}

/** Runs a model by name; `version` overrides settings.modelVersion. */
export function runModel(
  name: string,
  version: ModelVersion | undefined,
  image: Uint8Array | Buffer,
  settings?: unknown,
  opts: RunOptions = {},
): Promise<RunResult> {
  return getModel(name).run(image, settings, { ...opts, version: version ?? opts.version });
}
