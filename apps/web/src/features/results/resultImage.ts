import { resultImageCaption } from '@lamella/contracts';

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
 * The translation key of a result image's caption: what the overlay shows (RESULT_IMAGE_KINDS of the contracts, shared
 * with the job PDF): a grain-size result has two overlays, and the legend message names "the test-line image", so
 * each says what it shows. The scale bar's picture and an overlay no model is known to draw keep the generic caption.
 */
export function overlayCaptionKey(filename: string): string {
  const kind = resultImageCaption(filename);
  return kind && kind !== 'scaleBar' ? `results.panel.overlays.${kind}` : 'results.panel.resultImage';
}
