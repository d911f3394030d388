import { Type, type Static } from 'typebox';
import { FileDownload } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Standard result formats of a job's result (issue 27 item 4), made from the model's segmentation: every
 * 4-connected region (grain, pore, crack, coating part) is one object with an id from 1 in raster order.
 * - `labels.tif`: 16-bit greyscale TIFF, the object's id in each of its pixels, 0 elsewhere;
 * - `rois.zip`: ImageJ/Fiji ROI set, one traced outline (`.roi`) per object;
 * - `objects.geojson`: one Polygon Feature per object in image pixel coordinates, measurements as properties;
 * - `objects.csv` / `objects.xlsx`: one row per object (area, equivalent diameter, aspect ratio, orientation,
 *   perimeter, border flag), lengths in µm when the result is calibrated, else in pixels.
 */
export const RESULT_FORMATS = ['labels.tif', 'rois.zip', 'objects.geojson', 'objects.csv', 'objects.xlsx'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

export const ResultFormatParams = Type.Object(
  {
    resultId: Type.String({ format: 'uuid', description: "The result's identifier (a job's resultId)" }),
    format: Type.Union(
      [
        Type.Literal('labels.tif'),
        Type.Literal('rois.zip'),
        Type.Literal('objects.geojson'),
        Type.Literal('objects.csv'),
        Type.Literal('objects.xlsx'),
      ],
      { description: 'labels.tif, rois.zip, objects.geojson, objects.csv or objects.xlsx' },
    ),
  },
  { $id: 'ResultFormatParams' },
);
export type ResultFormatParams = Static<typeof ResultFormatParams>;

export const resultFormatsApi = {
  download: endpoint({
    method: 'GET',
    path: '/jobs/results/:resultId/formats/:format',
    operationId: 'getJobResultFormat',
    tags: ['jobs'],
    summary: "A job result's objects as a 16-bit label TIFF, an ImageJ ROI set, GeoJSON, or a per-object CSV/XLSX table",
    description:
      'Made from the segmentation of the model run (segmentation.png): each 4-connected region is one object, numbered from 1 in raster order, the same id in every format. ' +
      'A result without a segmentation (an older model version, or a run on a corrected mask) answers 409 RESULT_WITHOUT_SEGMENTATION; more than 65,535 objects answer 422 TOO_MANY_OBJECTS.',
    params: ResultFormatParams,
    response: { 200: FileDownload },
    produces: [
      'image/tiff',
      'application/zip',
      'application/geo+json',
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
  }),
};

/**
 * What each image the models draw into a result shows, by its file name (packages/analysis/src/models:
 * grain/overlay.ts, porosity.ts, cracks.ts, layer.ts, scaleBarModel.ts; classifier/recipe.ts). The results page
 * (`results.panel.overlays.<kind>`) and the job PDF (`reports.job.overlays.<kind>`) caption each by it; a file not
 * listed here (a model added later) keeps the generic caption.
 */
export const RESULT_IMAGE_KINDS = {
  'grain-boundaries.png': 'grainBoundaries',
  'e112-test-lines.png': 'e112TestLines',
  'porosity-overlay.png': 'porosity',
  'cracks-overlay.png': 'cracks',
  'layer-overlay.png': 'layer',
  'recipe-classes.png': 'recipeClasses',
  'scale-bar.png': 'scaleBar',
} as const;
export type ResultImageCaption = (typeof RESULT_IMAGE_KINDS)[keyof typeof RESULT_IMAGE_KINDS];

/** The kind of a result image by its file name, or null for one no model is known to draw. */
export function resultImageCaption(filename: string): ResultImageCaption | null {
  return Object.hasOwn(RESULT_IMAGE_KINDS, filename) ? RESULT_IMAGE_KINDS[filename as keyof typeof RESULT_IMAGE_KINDS] : null;
}
