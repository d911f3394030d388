import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import type { Job } from '@lamella/contracts';
import { labelRegions, measureObjects, outline } from '../src/modules/result-formats/formats.ts';
import { computedJob, modelIdOf, startTestApp, uploadPng, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * Issue 27 item 4 over real HTTP and a real launcher: a porosity job's objects as a 16-bit label TIFF, an ImageJ
 * ROI set, GeoJSON and a per-object table, all numbering the same objects.
 */
let t: TestApp;
let porosity: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  porosity = await modelIdOf(t, 'porosity');
}, 180_000);
afterAll(() => t?.close());

type Client = ReturnType<TestApp['client']>;

async function poresJob(client: Client, count: number): Promise<Job> {
  const { png } = await poresImage({ width: 640, height: 480, count, r: 12 });
  const up = await uploadPng(client, png, { name: 'pores.png', pixelSizeUm: 0.5 });
  expect(up.status).toBe(200);
  return computedJob<Job>(client, up.body[0].id, porosity);
}

/** The ids of a 16-bit label TIFF and each id's bounding box. */
async function readLabels(tif: Buffer) {
  const meta = await sharp(tif).metadata();
  expect(meta).toMatchObject({ format: 'tiff', depth: 'ushort', channels: 1 });
  const { data, info } = await sharp(tif).toColourspace('grey16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  const ids = new Uint16Array(data.buffer, data.byteOffset, info.width * info.height);
  const boxes = new Map<number, { left: number; top: number; right: number; bottom: number }>();
  for (let i = 0; i < ids.length; i++) {
    if (!ids[i]) continue;
    const x = i % info.width;
    const y = Math.floor(i / info.width);
    const b = boxes.get(ids[i]) ?? { left: x, top: y, right: x + 1, bottom: y + 1 };
    boxes.set(ids[i], { left: Math.min(b.left, x), top: Math.min(b.top, y), right: Math.max(b.right, x + 1), bottom: Math.max(b.bottom, y + 1) });
  }
  return { width: info.width, height: info.height, boxes };
}

describe('standard result formats', () => {
  it('traces outlines on pixel corners and measures a known rectangle and an L', () => {
    const w = 8;
    const mask = new Uint8Array(w * 6);
    for (let y = 1; y <= 2; y++) for (let x = 1; x <= 4; x++) mask[y * w + x] = 1; // 4 x 2 rectangle
    mask[4 * w + 6] = mask[5 * w + 6] = mask[5 * w + 7] = 1; // an L touching the border
    const labels = labelRegions(mask, w, 6);
    expect(labels.count).toBe(2);
    expect(outline(labels, 1, 1 * w + 1)).toEqual([
      [1, 1],
      [5, 1],
      [5, 3],
      [1, 3],
    ]);
    const { rows } = measureObjects(labels, 2);
    expect(rows[0]).toMatchObject({ id: 1, areaPx: 8, areaUm2: 32, border: false, aspectRatio: 2, orientationDeg: 0 });
    expect(rows[0].equivalentDiameter).toBeCloseTo(2 * Math.sqrt(8 / Math.PI) * 2, 6);
    expect(rows[0].perimeter).toBeCloseTo((12 - 4 * (2 - Math.SQRT2)) * 2, 6);
    expect(rows[1]).toMatchObject({ id: 2, areaPx: 3, border: true });
  });

  it("a job's label TIFF, ROI set, GeoJSON and object table number the same objects", async () => {
    const u = await t.signupVerified();
    const job = await poresJob(u.client, 18);
    expect(job.status).toBe('FINISHED');
    const base = `/api/jobs/results/${job.resultId}/formats`;

    const tif = await u.client.get(`${base}/labels.tif`);
    expect(tif.status).toBe(200);
    expect(tif.headers.get('content-type')).toBe('image/tiff');
    const labels = await readLabels(tif.buffer);
    const n = labels.boxes.size;
    expect(n).toBeGreaterThanOrEqual(15);
    expect([...labels.boxes.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));

    // the ROI set: one traced ROI per label, its bounds the label's bounding box
    const zipRes = await u.client.get(`${base}/rois.zip`);
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    const zip = await JSZip.loadAsync(zipRes.buffer);
    const entries = Object.values(zip.files).filter((f) => !f.dir);
    expect(entries).toHaveLength(n);
    for (const entry of entries) {
      const roi = Buffer.from(await entry.async('uint8array'));
      expect(roi.toString('latin1', 0, 4)).toBe('Iout');
      expect(roi.readUInt8(6)).toBe(8); // traced
      const id = Number(/object-(\d+)\.roi$/.exec(entry.name)![1]);
      const box = labels.boxes.get(id)!;
      expect({ top: roi.readInt16BE(8), left: roi.readInt16BE(10), bottom: roi.readInt16BE(12), right: roi.readInt16BE(14) }).toEqual(box);
      const corners = roi.readUInt16BE(16);
      expect(roi.length).toBe(64 + 4 * corners);
    }

    const geo = await u.client.get(`${base}/objects.geojson`);
    const features = (JSON.parse(geo.buffer.toString('utf8')) as { features: Array<{ id: number; geometry: { type: string } }> }).features;
    expect(features).toHaveLength(n);
    expect(features.every((f) => f.geometry.type === 'Polygon')).toBe(true);

    const csv = (await u.client.get(`${base}/objects.csv`)).buffer.toString('utf8').replace('\uFEFF', '').trim().split('\r\n');
    expect(csv[0]).toContain('Equivalent diameter (µm)');
    expect(csv).toHaveLength(n + 1);

    const xlsx = await u.client.get(`${base}/objects.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.buffer as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(n + 1);
    expect(typeof sheet.getRow(2).getCell(4).value).toBe('number');

    // another user reads nothing; an unknown format is a field error
    const other = await t.signupVerified();
    expect((await other.client.get(`${base}/labels.tif`)).status).toBe(404);
    const bad = await u.client.get(`${base}/labels.png`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  }, 180_000);
});
