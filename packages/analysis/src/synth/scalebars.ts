// Scale bars drawn the ways instruments and programs draw them, onto a grey micrograph: for the scale-bar tests
// and bench:scalebar. The bar's length in pixels is exact (integer rectangles; ticks are inside the bar's extent).
import sharp from 'sharp';

export type BarStyle =
  /** white bar and text on a black strip below the image (our own samples' SEM style) */
  | 'strip-dark'
  /** white bar and text on a black plate in the image */
  | 'plate-dark'
  /** black bar with end ticks, black text, on a white strip below the image (Zeiss-like) */
  | 'strip-light-ticks'
  /** black ruler with divisions, label beside it, on a white strip with other text (Hitachi-like) */
  | 'strip-light-ruler'
  /** black bar and text on a white box (as ImageJ draws it) */
  | 'box-light'
  /** a bare white bar and white text on the micrograph */
  | 'bare-light'
  /** a bare black bar and black text on the micrograph */
  | 'bare-dark';

export const BAR_STYLES: BarStyle[] = ['strip-dark', 'plate-dark', 'strip-light-ticks', 'strip-light-ruler', 'box-light', 'bare-light', 'bare-dark'];

export interface DrawnBarSpec {
  style: BarStyle;
  value: number;
  /** As printed: µm, μm, um, nm, mm; a decimal comma is printed when `comma`. */
  unit: string;
  lengthPx: number;
  comma?: boolean;
  /** Corner for boxes, plates and bare bars (default bottom right). */
  corner?: 'tl' | 'tr' | 'bl' | 'br';
  label?: 'above' | 'below' | 'left' | 'right';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The bar group's SVG elements at (0,0) and its size: bar, ticks and label. */
function group(spec: DrawnBarSpec, fg: string) {
  const len = spec.lengthPx;
  const font = Math.max(13, Math.round(len * 0.14));
  const t = Math.max(4, Math.round(len * 0.035));
  const tw = Math.max(2, Math.round(t / 2));
  const text = `${spec.comma ? String(spec.value).replace('.', ',') : spec.value} ${spec.unit}`;
  const textW = Math.round(text.length * font * 0.62);
  const gap = Math.round(font * 0.45);
  const ticks = spec.style === 'strip-light-ticks';
  const ruler = spec.style === 'strip-light-ruler';
  const tickH = ticks || ruler ? Math.round(t * 1.5) : 0;
  const pos = spec.label ?? (ruler ? 'right' : 'above');
  let bx = 0,
    by = tickH,
    tx = 0,
    ty = 0,
    anchor = 'middle',
    gw = 0,
    gh = 0;
  if (pos === 'above' || pos === 'below') {
    gw = Math.max(len, textW);
    bx = Math.round((gw - len) / 2);
    tx = Math.round(gw / 2);
    if (pos === 'above') {
      ty = font;
      by = font + gap + tickH;
      gh = by + t + tickH;
    } else {
      by = tickH;
      ty = by + t + tickH + gap + font;
      gh = ty + Math.round(font * 0.3);
    }
  } else {
    gh = Math.max(font * 1.3, t + 2 * tickH);
    by = Math.round((gh - t) / 2);
    ty = Math.round(by + t / 2 + font * 0.36);
    if (pos === 'left') {
      tx = textW;
      anchor = 'end';
      bx = textW + gap;
    } else {
      bx = 0;
      tx = len + gap;
      anchor = 'start';
    }
    gw = bx + len + (pos === 'right' ? gap + textW : 0);
  }
  const els: string[] = [`<rect x="${bx}" y="${by}" width="${len}" height="${t}" fill="${fg}"/>`];
  if (ticks) for (const x of [bx, bx + len - tw]) els.push(`<rect x="${x}" y="${by - tickH}" width="${tw}" height="${t + 2 * tickH}" fill="${fg}"/>`);
  if (ruler)
    for (let i = 0; i <= 10; i++) {
      const x = i === 10 ? bx + len - tw : bx + Math.round((i * len) / 10);
      const hh = i % 5 === 0 ? tickH : Math.round(tickH * 0.6);
      els.push(`<rect x="${x}" y="${by - hh}" width="${tw}" height="${t + hh}" fill="${fg}"/>`);
    }
  els.push(`<text x="${tx}" y="${ty}" text-anchor="${anchor}" font-family="DejaVu Sans" font-size="${font}" fill="${fg}">${esc(text)}</text>`);
  return { els: els.join(''), gw: Math.ceil(gw), gh: Math.ceil(gh), bx, by, font, t };
}

/**
 * Draws the bar onto a grey image (row-major, 8 bit). Strip styles append a strip below the image; the others
 * draw inside it at the corner. Returns the new grey image and the bar's rectangle.
 */
export async function drawScaleBar(
  gray: Uint8Array,
  w: number,
  h: number,
  spec: DrawnBarSpec,
): Promise<{ data: Uint8Array; width: number; height: number; bar: { x: number; y: number; width: number; height: number } }> {
  const light = spec.style === 'strip-light-ticks' || spec.style === 'strip-light-ruler' || spec.style === 'box-light' || spec.style === 'bare-dark';
  const fg = light ? 'black' : 'white';
  const bg = light ? 'white' : 'black';
  const g = group(spec, fg);
  const strip = spec.style.startsWith('strip');
  let H = h;
  let ox: number, oy: number;
  const extra: string[] = [];
  if (strip) {
    const stripH = Math.round(g.gh + g.font * 1.6);
    H = h + stripH;
    ox = Math.round(w * 0.62);
    oy = h + Math.round((stripH - g.gh) / 2);
    extra.push(`<rect x="0" y="${h}" width="${w}" height="${stripH}" fill="${bg}"/>`);
    if (spec.style !== 'strip-light-ruler') extra.push(`<rect x="0" y="${h}" width="${w}" height="2" fill="${fg}"/>`);
    const f = Math.max(12, Math.round(g.font * 0.8));
    extra.push(
      `<text x="${Math.round(w * 0.03)}" y="${h + Math.round(stripH * 0.42)}" font-family="DejaVu Sans" font-size="${f}" fill="${fg}">EHT = 15.00 kV   WD = 8.5 mm</text>`,
      `<text x="${Math.round(w * 0.03)}" y="${h + Math.round(stripH * 0.42) + Math.round(f * 1.4)}" font-family="DejaVu Sans" font-size="${f}" fill="${fg}">Mag = 2.00 K X   Signal A = SE2</text>`,
    );
  } else {
    const corner = spec.corner ?? 'br';
    const pad = spec.style === 'bare-light' || spec.style === 'bare-dark' ? 0 : Math.round(g.font * 0.6);
    const mx = Math.round(w * 0.04),
      my = Math.round(h * 0.04);
    ox = corner.endsWith('r') ? w - mx - g.gw - pad : mx + pad;
    oy = corner.startsWith('b') ? h - my - g.gh - pad : my + pad;
    if (pad) extra.push(`<rect x="${ox - pad}" y="${oy - pad}" width="${g.gw + 2 * pad}" height="${g.gh + 2 * pad}" fill="${bg}"/>`);
  }
  const svg = `<svg width="${w}" height="${H}" xmlns="http://www.w3.org/2000/svg">${extra.join('')}<g transform="translate(${ox},${oy})">${g.els}</g></svg>`;
  const base = new Uint8Array(w * H);
  base.set(gray.subarray(0, w * h));
  const out = await sharp(Buffer.from(base), { raw: { width: w, height: H, channels: 1 } })
    .composite([{ input: Buffer.from(svg) }])
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ch = out.info.channels;
  const data = new Uint8Array(w * H);
  for (let i = 0; i < data.length; i++) data[i] = out.data[i * ch];
  return { data, width: w, height: H, bar: { x: ox + g.bx, y: oy + g.by, width: spec.lengthPx, height: g.t } };
}

/** Resamples a grey image by `scale` (Lanczos, as image software does); returns the exact factor applied in x. */
export async function resampleGray(
  gray: Uint8Array,
  w: number,
  h: number,
  scale: number,
): Promise<{ data: Uint8Array; width: number; height: number; factor: number }> {
  const W = Math.max(1, Math.round(w * scale)),
    H = Math.max(1, Math.round(h * scale));
  const { data: buf, info } = await sharp(Buffer.from(gray), { raw: { width: w, height: h, channels: 1 }, limitInputPixels: false })
    .resize(W, H, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = new Uint8Array(W * H);
  for (let i = 0; i < data.length; i++) data[i] = buf[i * info.channels];
  return { data, width: W, height: H, factor: W / w };
}
