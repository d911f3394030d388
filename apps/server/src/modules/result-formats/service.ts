import type { ResultFormat } from '@lamella/contracts';
import { translate, type Language } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError } from '../../platform/http/errors.ts';
import { CSV_TYPE, tableToCsv, tableToXlsx, XLSX_TYPE, type Table } from '../../platform/http/spreadsheet.ts';
import type { CsvOptions } from '../../platform/http/csv.ts';
import * as jobs from '../jobs/service.ts';
import { geoJson, labelRegions, labelTiff, maskOf, measureObjects, roiZip, TooManyObjectsError, type ObjectRow } from './formats.ts';

const SEGMENTATION = 'segmentation.png';

export interface FormatFile {
  body: Buffer | string;
  type: string;
  filename: string;
}

async function streamToBuffer(stream: AsyncIterable<Buffer | Uint8Array | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  return Buffer.concat(parts);
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));

/** The per-object table, headers in the reader's language with the length unit. */
export function objectTable(rows: ObjectRow[], calibrated: boolean, lng: Language): Table {
  const unit = calibrated ? 'µm' : 'px';
  const h = (key: string, u?: string) => `${translate(lng, key)}${u ? ` (${u})` : ''}`;
  return {
    headers: [
      h('resultFormats.id'),
      h('resultFormats.areaPx', 'px²'),
      h('resultFormats.area', calibrated ? 'µm²' : 'px²'),
      h('resultFormats.equivalentDiameter', unit),
      h('resultFormats.aspectRatio'),
      h('resultFormats.orientation', '°'),
      h('resultFormats.perimeter', unit),
      h('resultFormats.border'),
    ],
    rows: rows.map((r) => [
      r.id,
      r.areaPx,
      round(r.areaUm2 ?? r.areaPx, 4),
      round(r.equivalentDiameter, 4),
      round(r.aspectRatio, 3),
      round(r.orientationDeg, 1),
      round(r.perimeter, 4),
      r.border,
    ]),
  };
}

/**
 * One standard format of a result the caller may read (jobs.getResult's rules: owner, admin, project member);
 * 409 RESULT_WITHOUT_SEGMENTATION when the run left no segmentation, 422 TOO_MANY_OBJECTS past 65,535 objects.
 */
export async function resultFormat(
  db: Db,
  storage: Storage,
  auth: AuthContext,
  resultId: string,
  format: ResultFormat,
  lng: Language,
  csv: CsvOptions,
): Promise<FormatFile> {
  const result = await jobs.getResult(db, auth, resultId, lng);
  if (!result.files.includes(SEGMENTATION)) throw new AppError(409, 'RESULT_WITHOUT_SEGMENTATION', 'errors.resultWithoutSegmentation');
  const file = await jobs.resultFile(db, storage, auth, resultId, SEGMENTATION);
  const { mask, width, height } = await maskOf(await streamToBuffer(file.stream as AsyncIterable<Buffer>));
  let labels;
  try {
    labels = labelRegions(mask, width, height);
  } catch (e) {
    if (e instanceof TooManyObjectsError) throw new AppError(422, 'TOO_MANY_OBJECTS', 'errors.tooManyObjects', { max: 65535 });
    throw e;
  }
  const name = `result-${resultId.slice(0, 8)}`;
  if (format === 'labels.tif') return { body: await labelTiff(labels), type: 'image/tiff', filename: `${name}-labels.tif` };
  const px = result.measurements.pixelSizeUm;
  const pixelSizeUm = typeof px === 'number' && px > 0 ? px : null;
  const objects = measureObjects(labels, pixelSizeUm);
  if (format === 'rois.zip') return { body: await roiZip(objects, 'object'), type: 'application/zip', filename: `${name}-rois.zip` };
  if (format === 'objects.geojson')
    return {
      body: JSON.stringify(geoJson(objects, { pixelSizeUm, unit: pixelSizeUm ? 'µm' : 'px' })),
      type: 'application/geo+json',
      filename: `${name}-objects.geojson`,
    };
  const table = objectTable(objects.rows, pixelSizeUm !== null, lng);
  if (format === 'objects.xlsx') return { body: await tableToXlsx(table, 'Objects'), type: XLSX_TYPE, filename: `${name}-objects.xlsx` };
  return { body: tableToCsv(table, csv), type: CSV_TYPE, filename: `${name}-objects.csv` };
}
