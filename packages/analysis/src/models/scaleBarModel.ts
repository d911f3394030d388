import type { Context } from './common.js';
import { calibrationRows, table, tr } from './common.js';
import { encodePng } from '../image.js';

/** File of the scale-bar model's picture: the part of the image around the bar, the bar and its label outlined (20261201). */
export const SCALE_BAR_FILE = 'scale-bar.png';

export async function runScaleBar(ctx: Context): Promise<void> {
  const { lang, scaleBar: sb } = ctx;
  ctx.items.push(
    table([
      ...calibrationRows(ctx),
      ...(sb.found
        ? [
            { label: tr(lang, { en: 'Bar length', de: 'Balkenlänge' }), labelTooltip: '', value: sb.lengthPx!, unit: 'px' },
            {
              label: tr(lang, { en: 'Label', de: 'Beschriftung' }),
              labelTooltip: tr(lang, { en: 'Read by OCR', de: 'Per OCR gelesen' }),
              value: `${sb.value} ${sb.unit}`,
              unit: '',
            },
          ]
        : []),
    ]),
  );
  if (sb.found) ctx.measurements.scaleBarStyle = sb.style!;
  await showBarFound(ctx);
}

/**
 * The bar found, outlined on the part of the image around it (from 20261201): the scale-bar model's picture, and
 * every other model's when its lengths are calibrated from the bar, so the user sees what the calibration was read from.
 */
export async function showBarFound(ctx: Context): Promise<void> {
  const sb = ctx.scaleBar;
  if (!sb.found || !sb.bar || !ctx.fullImage || ctx.version < '20261201') return;
  if (ctx.files.some((f) => f.filename === SCALE_BAR_FILE)) return;
  ctx.files.push({ filename: SCALE_BAR_FILE, data: await outlinedBar(ctx) });
  ctx.items.push({ type: 'image', filename: SCALE_BAR_FILE });
}

/** The bar's surroundings (the bar's length around it, at most 1600 px wide) with the bar outlined in red and the label in blue. */
async function outlinedBar(ctx: Context): Promise<Buffer> {
  const img = ctx.fullImage!;
  const sb = ctx.scaleBar;
  const bar = sb.bar!;
  const boxes = [bar, ...(sb.label ? [sb.label] : [])];
  const m = Math.round(Math.max(40, 0.5 * bar.width));
  const x0 = Math.max(0, Math.min(...boxes.map((b) => b.x)) - m),
    y0 = Math.max(0, Math.min(...boxes.map((b) => b.y)) - m);
  const x1 = Math.min(img.width, Math.max(...boxes.map((b) => b.x + b.width)) + m),
    y1 = Math.min(img.height, Math.max(...boxes.map((b) => b.y + b.height)) + m);
  const step = Math.max(1, Math.ceil((x1 - x0) / 1600));
  const w = Math.floor((x1 - x0) / step),
    h = Math.floor((y1 - y0) / step);
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = img.data[(y0 + y * step) * img.width + x0 + x * step];
      out.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  const t = Math.max(2, Math.round(bar.height / step / 2));
  const outline = (b: { x: number; y: number; width: number; height: number }, c: [number, number, number]) => {
    const bx0 = Math.floor((b.x - x0) / step) - t - 1,
      by0 = Math.floor((b.y - y0) / step) - t - 1;
    const bx1 = Math.ceil((b.x + b.width - x0) / step) + t,
      by1 = Math.ceil((b.y + b.height - y0) / step) + t;
    for (let y = by0; y <= by1; y++)
      for (let x = bx0; x <= bx1; x++) {
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        if (x - bx0 >= t && bx1 - x >= t && y - by0 >= t && by1 - y >= t) continue;
        out.set(c, (y * w + x) * 3);
      }
  };
  if (sb.label) outline(sb.label, [40, 110, 255]);
  outline(bar, [255, 40, 40]);
  return encodePng(out, w, h, 3);
}
