/**
 * What a result image is, for its caption: the picture of the scale bar a job's lengths were calibrated from
 * (every model's result carries it when the calibration came from the bar, issue 23 item 5; the analysis names it
 * `scale-bar.png`: packages/analysis/src/models/scaleBarModel.ts), or an overlay drawn on the analysed image.
 */
export const SCALE_BAR_FILE = 'scale-bar.png';

export type ResultImageKind = 'scale-bar' | 'overlay';

export function resultImageKind(filename: string): ResultImageKind {
  return filename === SCALE_BAR_FILE ? 'scale-bar' : 'overlay';
}

/**
 * The images in the order they are shown: the overlays first, then the scale bar the calibration was read from
 * (it shows where the numbers' scale came from, not a result of the model itself).
 */
export function orderResultImages<T extends { filename: string }>(images: T[]): T[] {
  return [...images.filter((i) => resultImageKind(i.filename) === 'overlay'), ...images.filter((i) => resultImageKind(i.filename) === 'scale-bar')];
}

/**
 * The caption of each overlay the models draw, by its file name (packages/analysis/src/models: grain/overlay.ts,
 * porosity.ts, cracks.ts, layer.ts; classifier/recipe.ts): a grain-size result has two overlays, and the legend
 * message names "the test-line image", so each says what it shows. Short enough for a phone's figure caption. An
 * overlay not listed here (a model added later) keeps the generic caption.
 */
const OVERLAY_CAPTIONS = {
  'grain-boundaries.png': 'results.panel.overlays.grainBoundaries',
  'e112-test-lines.png': 'results.panel.overlays.e112TestLines',
  'porosity-overlay.png': 'results.panel.overlays.porosity',
  'cracks-overlay.png': 'results.panel.overlays.cracks',
  'layer-overlay.png': 'results.panel.overlays.layer',
  'recipe-classes.png': 'results.panel.overlays.recipeClasses',
} as const;

export type OverlayCaptionKey = (typeof OVERLAY_CAPTIONS)[keyof typeof OVERLAY_CAPTIONS] | 'results.panel.resultImage';

export function overlayCaptionKey(filename: string): OverlayCaptionKey {
  return Object.hasOwn(OVERLAY_CAPTIONS, filename) ? OVERLAY_CAPTIONS[filename as keyof typeof OVERLAY_CAPTIONS] : 'results.panel.resultImage';
}
