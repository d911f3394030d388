import { availableParallelism } from 'node:os';
import * as analysis from '@lamella/analysis';

export interface RunRequest {
  model: string;
  version: string;
  settings: Record<string, unknown>;
  crop?: { x: number; y: number; width: number; height: number } | null;
  language?: 'en' | 'de';
  image: Buffer;
  mask?: Buffer | null;
  /** The user's calibration of the image (µm/px), or null. */
  pixelSizeUm?: number | null;
  /** Whether the settings' magnification was chosen (a customization) and may calibrate. */
  settingsCalibration?: boolean;
  /** Text of the instrument's sidecar file uploaded with the image (JEOL, Hitachi…), or null. */
  sidecar?: string | null;
  /** The job's recipe (issue 22): its classifier segments the image, the model measures the class it names. */
  recipe?: unknown;
  /** A trained network file (network-cache.ts) that the model runs instead of its shipped network, or null. */
  networkPath?: string | null;
}

export interface RunOutput {
  items: unknown[];
  measurements: Record<string, unknown>;
  files: Array<{ filename: string; data: Buffer }>;
}

export interface Engine {
  /** Analyses it runs at the same time: one per worker thread. */
  readonly slots: number;
  models(): Array<{ name: string; versions: string[] }>;
  run(request: RunRequest): Promise<RunOutput>;
  close(): Promise<void>;
}

/**
 * The analysis engine of packages/analysis. Models run in its pool of worker threads (one analysis per
 * thread), so the launcher's HTTP loop (health checks) stays responsive during a long analysis and one
 * launcher uses every core it is given.
 */
export function createEngine(size = availableParallelism()): Engine {
  const pool = analysis.createAnalysisPool({ size });
  return {
    slots: pool.size,
    models: () => analysis.models.map((m) => ({ name: m.name, versions: [...m.versions] })),
    async run(r) {
      const version = (r.version || undefined) as analysis.ModelVersion | undefined;
      const opts = {
        crop: r.crop ?? undefined,
        masks: r.mask ?? undefined,
        lang: r.language ?? 'en',
        pixelSizeUm: r.pixelSizeUm ?? null,
        settingsCalibration: r.settingsCalibration ?? true,
        sidecar: r.sidecar ?? null,
        recipe: (r.recipe ?? null) as analysis.RecipeRun | null,
        network: r.networkPath ?? null,
      } as const;
      const out = await pool.run(r.model, version, r.image, r.settings, opts);
      return {
        items: out.items as unknown[],
        measurements: out.measurements as Record<string, unknown>,
        files: (out.files ?? []).map((f) => ({ filename: f.filename, data: Buffer.from(f.data) })),
      };
    },
    close: async () => {
      await pool.close();
    },
  };
}
