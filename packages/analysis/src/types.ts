import type { RecipeRun } from './classifier/recipe.js';

export type Lang = 'en' | 'de';
export { atVersion, CURRENT_VERSION, VERSIONS, type ModelVersion } from './versions.js';
import type { ModelVersion } from './versions.js';

export interface BarChartItem {
  type: 'bar-chart';
  data: Record<string, string | number>[];
  keys: string[];
  xLabel: string;
  yLabels: string[];
}
export interface DataTableItem {
  type: 'data-table';
  rows: { label: string; labelTooltip: string; value: string | number; unit: string }[];
}
export interface HistogramItem {
  type: 'histogram';
  label: string;
  xLabel: string;
  yLabel: string;
  unit: string;
  data: { x: number | [number, number]; y: number; color: string }[];
}
export interface ImageItem {
  type: 'image';
  filename: string;
}
export interface MessageItem {
  type: 'message';
  title: string;
  content: string;
  status: 'info' | 'warning' | 'error';
  /** Stable code of a message the app acts on (e.g. CALIBRATION_MISSING: offer to set the pixel size). */
  code?: string;
}
export type ResultItem = BarChartItem | DataTableItem | HistogramItem | ImageItem | MessageItem;

export interface RunFile {
  filename: string;
  data: Buffer;
}
export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface RunOptions {
  crop?: Crop;
  /** Label image (PNG) replacing the model's own segmentation. */
  masks?: Uint8Array | Buffer;
  /** Language of texts in items. */
  lang?: Lang;
  /** Force a version (defaults to settings.modelVersion). */
  version?: ModelVersion;
  /** The user's calibration of this image in µm per pixel; wins over metadata, scale bar and settings (20261123). */
  pixelSizeUm?: number | null;
  /**
   * Whether the settings' magnification calibrates when the image has no user value, metadata or scale bar
   * (default true). The server passes false when no customization chose a magnification: the result is then
   * uncalibrated (20261123).
   */
  settingsCalibration?: boolean;
  /** Text of a sidecar file uploaded with the image (same stem: JEOL or Hitachi `.txt`, TESCAN `.hdr`…), 20261201. */
  sidecar?: string | null;
  /** A recipe (issue 22): its classifier segments the image and the model measures the class it names. */
  recipe?: RecipeRun | null;
  /**
   * Absolute path of a trained grain-boundary network (.onnx, same input and output as the shipped
   * packages/analysis/models/grain-boundaries.onnx) used instead of the shipped one: a trained model version (issue 25).
   * Only the learned grain segmentation (grain size 20261201) reads it.
   */
  network?: string | null;
}
export type Measurements = Record<string, number | string | boolean | null>;
export interface RunResult {
  model: string;
  version: ModelVersion;
  items: ResultItem[];
  measurements: Measurements;
  files: RunFile[];
}

export interface RGB {
  r: number;
  g: number;
  b: number;
}
export interface Settings {
  magnification: { unit: 'µm' | 'mm' | 'nm'; number: number; length: number };
  modelVersion: ModelVersion;
  measurementType: 'LIKE_GRAIN' | 'LIKE_LAYER' | 'LIKE_CRACKS';
  segmentation: { maxPoints: number; minScore: number; maxScore: number; maxIterations: number; maskErosion: number };
  layer: { histogramBins: number; blurring: number; threshold: number; cutBottom: number };
  colours: { cracks: RGB; feature: RGB; resin: RGB; boundary: RGB };
  /** Grain size 20261201: annealing twins count as boundaries when true (E112 excludes them: default false). */
  grain?: { countTwins: boolean };
}
