import sharp from 'sharp';
import JSZip from 'jszip';

/**
 * Standard result formats of one job (issue 27 item 4), made from the model's segmentation (segmentation.png: 1 on
 * grain interiors, pores, cracks or coating): each 4-connected region is one object with an id from 1 (top-left
 * first), and every format names the objects by that id.
 */

export interface Labels {
  width: number;
  height: number;
  /** Object id per pixel, 0: background. */
  ids: Uint16Array;
  count: number;
}

export interface ObjectRow {
  id: number;
  /** Pixels of the object. */
  areaPx: number;
  /** µm² with a calibration, else null. */
  areaUm2: number | null;
  /** Diameter of the circle of the same area, µm (calibrated) or px. */
  equivalentDiameter: number;
  /** Major over minor axis of the ellipse of the same second moments (≥ 1). */
  aspectRatio: number;
  /** Angle of the major axis, degrees counter-clockwise from the x axis (0–180), as ImageJ's Fit Ellipse. */
  orientationDeg: number;
  /** Length of the traced outline with ImageJ's corner correction, µm (calibrated) or px. */
  perimeter: number;
  /** Whether the object touches the image border (cut by it: its size is a lower bound). */
  border: boolean;
  /** Bounding box in pixels. */
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** 16-bit ids: a label image holds at most 65,535 objects. */
export const MAX_OBJECTS = 65_535;

export class TooManyObjectsError extends Error {}

/** Connected regions (4-neighbours) of the non-zero pixels of a one-channel mask, numbered in raster order. */
export function labelRegions(mask: Uint8Array, width: number, height: number): Labels {
  const ids = new Uint16Array(width * height);
  const stack = new Int32Array(width * height);
  let count = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || ids[start]) continue;
    if (++count > MAX_OBJECTS) throw new TooManyObjectsError(`more than ${MAX_OBJECTS} objects`);
    let top = 0;
    stack[top++] = start;
    ids[start] = count;
    while (top) {
      const i = stack[--top];
      const x = i % width;
      const visit = (j: number) => {
        if (mask[j] && !ids[j]) {
          ids[j] = count;
          stack[top++] = j;
        }
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (i >= width) visit(i - width);
      if (i + width < mask.length) visit(i + width);
    }
  }
  return { width, height, ids, count };
}

/** Reads segmentation.png (or any mask image) as a binary mask: non-zero first channel. */
export async function maskOf(png: Buffer): Promise<{ mask: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const mask = new Uint8Array(info.width * info.height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[i] ? 1 : 0;
  return { mask, width: info.width, height: info.height };
}

/** The label image as a 16-bit greyscale TIFF (deflate), one id per object, 0 for the background. */
export function labelTiff(labels: Labels): Promise<Buffer> {
  return sharp(labels.ids, { raw: { width: labels.width, height: labels.height, channels: 1 } })
    .toColourspace('grey16')
    .tiff({ compression: 'deflate' })
    .toBuffer();
}

type Point = [number, number];
// headings: east, south, west, north (image y points down)
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/**
 * The outer outline of object `id` on the pixel-corner grid, clockwise on screen, as the corners where it turns
 * (ImageJ's traced ROI). Crack following with the object on the right: at each corner the two pixels ahead decide
 * (both inside: turn left; only the right one: straight; else turn right), which keeps 4-connected regions apart.
 */
export function outline(labels: Labels, id: number, startIndex: number): Point[] {
  const { width, height, ids } = labels;
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && ids[y * width + x] === id;
  const x0 = startIndex % width;
  const y0 = (startIndex - x0) / width;
  const points: Point[] = [[x0, y0]];
  let cx = x0;
  let cy = y0;
  let d = 0;
  for (;;) {
    cx += DX[d];
    cy += DY[d];
    // pixels ahead-right and ahead-left of corner (cx, cy) for heading d
    const r = d === 0 ? inside(cx, cy) : d === 1 ? inside(cx - 1, cy) : d === 2 ? inside(cx - 1, cy - 1) : inside(cx, cy - 1);
    const l = d === 0 ? inside(cx, cy - 1) : d === 1 ? inside(cx, cy) : d === 2 ? inside(cx - 1, cy) : inside(cx - 1, cy - 1);
    const next = r ? (l ? (d + 3) % 4 : d) : (d + 1) % 4;
    if (cx === x0 && cy === y0 && next === 0) break;
    if (next !== d) points.push([cx, cy]);
    d = next;
  }
  return points;
}

/** ImageJ's perimeter of a traced outline: the steps, less (2 − √2) for each corner. */
function tracedPerimeter(points: Point[]): number {
  let steps = 0;
  for (let i = 0; i < points.length; i++) {
    const [ax, ay] = points[i];
    const [bx, by] = points[(i + 1) % points.length];
    steps += Math.abs(bx - ax) + Math.abs(by - ay);
  }
  return steps - points.length * (2 - Math.SQRT2);
}

export interface Objects {
  rows: ObjectRow[];
  outlines: Point[][];
}

/** Per-object measurements and outlines; lengths in µm when `pixelSizeUm` is given, else in pixels. */
export function measureObjects(labels: Labels, pixelSizeUm: number | null): Objects {
  const { width, height, ids, count } = labels;
  const n = count + 1;
  const area = new Float64Array(n);
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const sxx = new Float64Array(n);
  const syy = new Float64Array(n);
  const sxy = new Float64Array(n);
  const first = new Int32Array(n).fill(-1);
  const left = new Int32Array(n).fill(width);
  const top = new Int32Array(n).fill(height);
  const right = new Int32Array(n);
  const bottom = new Int32Array(n);
  for (let y = 0, i = 0; y < height; y++)
    for (let x = 0; x < width; x++, i++) {
      const id = ids[i];
      if (!id) continue;
      if (first[id] < 0) first[id] = i;
      const cx = x + 0.5;
      const cy = y + 0.5;
      area[id] += 1;
      sx[id] += cx;
      sy[id] += cy;
      sxx[id] += cx * cx;
      syy[id] += cy * cy;
      sxy[id] += cx * cy;
      if (x < left[id]) left[id] = x;
      if (x + 1 > right[id]) right[id] = x + 1;
      if (y < top[id]) top[id] = y;
      if (y + 1 > bottom[id]) bottom[id] = y + 1;
    }
  const scale = pixelSizeUm ?? 1;
  const rows: ObjectRow[] = [];
  const outlines: Point[][] = [];
  for (let id = 1; id <= count; id++) {
    const a = area[id];
    const mx = sx[id] / a;
    const my = sy[id] / a;
    // central second moments, with each pixel's own extent (1/12)
    const u20 = sxx[id] / a - mx * mx + 1 / 12;
    const u02 = syy[id] / a - my * my + 1 / 12;
    const u11 = sxy[id] / a - mx * my;
    const common = Math.sqrt(((u20 - u02) / 2) ** 2 + u11 ** 2);
    const major = Math.sqrt((u20 + u02) / 2 + common);
    const minor = Math.sqrt(Math.max((u20 + u02) / 2 - common, 1e-12));
    // y points down: counter-clockwise on screen is the negative angle in image coordinates
    let angle = (-0.5 * Math.atan2(2 * u11, u20 - u02) * 180) / Math.PI || 0;
    if (angle < 0) angle += 180;
    const points = outline(labels, id, first[id]);
    outlines.push(points);
    rows.push({
      id,
      areaPx: a,
      areaUm2: pixelSizeUm ? a * pixelSizeUm * pixelSizeUm : null,
      equivalentDiameter: 2 * Math.sqrt(a / Math.PI) * scale,
      aspectRatio: major / minor,
      orientationDeg: angle >= 180 ? 0 : angle,
      perimeter: tracedPerimeter(points) * scale,
      border: left[id] === 0 || top[id] === 0 || right[id] === width || bottom[id] === height,
      left: left[id],
      top: top[id],
      right: right[id],
      bottom: bottom[id],
    });
  }
  return { rows, outlines };
}

/**
 * One ImageJ ROI (.roi, RoiDecoder's format): "Iout", version 227, type 8 (traced), the bounds, then the corner
 * coordinates relative to the bounds' top-left as 16-bit big-endian integers (x's, then y's).
 */
export function encodeRoi(points: Point[], bounds: { left: number; top: number; right: number; bottom: number }): Buffer {
  const n = points.length;
  const buf = Buffer.alloc(64 + 4 * n);
  buf.write('Iout', 0, 'latin1');
  buf.writeInt16BE(227, 4);
  buf.writeUInt8(8, 6);
  buf.writeInt16BE(bounds.top, 8);
  buf.writeInt16BE(bounds.left, 10);
  buf.writeInt16BE(bounds.bottom, 12);
  buf.writeInt16BE(bounds.right, 14);
  buf.writeUInt16BE(n, 16);
  points.forEach(([x, y], i) => {
    buf.writeInt16BE(x - bounds.left, 64 + 2 * i);
    buf.writeInt16BE(y - bounds.top, 64 + 2 * n + 2 * i);
  });
  return buf;
}

/** The ROI set ImageJ and Fiji open (File > Open, or the ROI Manager): one `<kind>-<id>.roi` per object. */
export function roiZip(objects: Objects, kind: string): Promise<Buffer> {
  const zip = new JSZip();
  const digits = String(objects.rows.length).length;
  objects.rows.forEach((row, i) => zip.file(`${kind}-${String(row.id).padStart(Math.max(digits, 4), '0')}.roi`, encodeRoi(objects.outlines[i], row)));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

/**
 * GeoJSON of the objects: one Polygon Feature per object, in pixel coordinates of the image (x right, y down, the
 * outline on pixel corners, outer ring only), with the table's measurements as properties.
 */
export function geoJson(objects: Objects, meta: { pixelSizeUm: number | null; unit: string }): object {
  return {
    type: 'FeatureCollection',
    properties: { coordinates: 'image pixels, x right, y down', pixelSizeUm: meta.pixelSizeUm, lengthUnit: meta.unit },
    features: objects.rows.map((row, i) => {
      const ring = objects.outlines[i].map(([x, y]) => [x, y]);
      ring.push(ring[0]);
      // GeoJSON's outer rings are counter-clockwise in y-up axes: clockwise on screen, as traced
      const { left: _l, top: _t, right: _r, bottom: _b, ...props } = row;
      return {
        type: 'Feature',
        id: row.id,
        bbox: [row.left, row.top, row.right, row.bottom],
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: props,
      };
    }),
  };
}
