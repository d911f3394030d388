import sharp from 'sharp';
import { AnalysisError } from './errors.js';

export const MAX_PIXELS = 100_000_000;

/** 8-bit single-channel image. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type ImageFormat = 'png' | 'jpeg' | 'tiff';

export function sniffFormat(buf: Uint8Array): ImageFormat | null {
  if (buf.length >= 8 && buf[0] === 0x89 && buf[1] === 0x50 && buf[2] === 0x4e && buf[3] === 0x47) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (
    buf.length >= 4 &&
    ((buf[0] === 0x49 && buf[1] === 0x49 && buf[2] === 0x2a && buf[3] === 0) ||
      (buf[0] === 0x4d && buf[1] === 0x4d && buf[2] === 0 && buf[3] === 0x2a))
  )
    return 'tiff';
  return null;
}

/**
 * Decodes PNG / JPEG / TIFF (8 or 16 bit, grey or RGB, format decided by content) to 8-bit grey.
 * 16-bit images are mapped to 8 bit with a 0.01 %/99.99 % percentile stretch so that images that use
 * only part of the 16-bit range (12-bit detectors) keep their contrast.
 */
export async function decodeImage(input: Uint8Array | Buffer): Promise<Gray & { format: ImageFormat; bitDepth: number }> {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = sniffFormat(buf);
  if (!format) throw new AnalysisError('UNSUPPORTED_IMAGE', 'Unsupported image format: expected PNG, JPEG or TIFF');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new AnalysisError('CORRUPT_IMAGE', `Corrupt ${format.toUpperCase()} image: ${(e as Error).message}`);
  }
  if (!meta.width || !meta.height) throw new AnalysisError('CORRUPT_IMAGE', 'Image has no size');
  if (meta.width * meta.height > MAX_PIXELS)
    throw new AnalysisError('IMAGE_TOO_LARGE', `Image has ${meta.width}×${meta.height} pixels; the limit is ${MAX_PIXELS / 1e6} MP`);
  const sixteen = meta.depth === 'ushort' || meta.depth === 'short';
  // 32-bit integer and floating-point images (ImageJ saves 32-bit float TIFFs): values of any range, stretched
  // between their 0.01 % and 99.99 % points as 16-bit ones are; NaN and ±∞ pixels count as the darkest.
  const wide = meta.depth === 'float' || meta.depth === 'double' || meta.depth === 'int' || meta.depth === 'uint' || meta.depth === 'char';
  try {
    if (wide) {
      const { data, info } = await sharp(buf, { limitInputPixels: MAX_PIXELS })
        .extractChannel(0)
        .raw({ depth: 'float' })
        .toBuffer({ resolveWithObject: true });
      const f32 = new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
      return { width: info.width, height: info.height, data: stretchFloat(f32), format, bitDepth: 32 };
    }
    if (sixteen) {
      const { data, info } = await sharp(buf, { limitInputPixels: MAX_PIXELS })
        .toColourspace('grey16')
        .extractChannel(0)
        .raw({ depth: 'ushort' })
        .toBuffer({ resolveWithObject: true });
      const u16 = new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2);
      const hist = new Uint32Array(65536);
      for (let i = 0; i < u16.length; i++) hist[u16[i]]++;
      const n = u16.length;
      let lo = 0,
        hi = 65535,
        acc = 0;
      for (let v = 0; v < 65536; v++) {
        acc += hist[v];
        if (acc > n * 0.0001) {
          lo = v;
          break;
        }
      }
      acc = 0;
      for (let v = 65535; v >= 0; v--) {
        acc += hist[v];
        if (acc > n * 0.0001) {
          hi = v;
          break;
        }
      }
      if (hi <= lo) hi = lo + 1;
      const out = new Uint8Array(n);
      const s = 255 / (hi - lo);
      for (let i = 0; i < n; i++) {
        const v = (u16[i] - lo) * s;
        out[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
      return { width: info.width, height: info.height, data: out, format, bitDepth: 16 };
    }
    const { data, info } = await sharp(buf, { limitInputPixels: MAX_PIXELS })
      .flatten({ background: '#000000' })
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), format, bitDepth: 8 };
  } catch (e) {
    if (e instanceof AnalysisError) throw e;
    throw new AnalysisError('CORRUPT_IMAGE', `Corrupt ${format.toUpperCase()} image: ${(e as Error).message}`);
  }
}

/**
 * The area `r` of a colour image as 8-bit RGB (alpha flattened on black), or null when the image has one channel
 * (grey, or grey with alpha) or its three channels are equal everywhere.
 */
export async function decodeColour(input: Uint8Array | Buffer, r: Rect): Promise<Uint8Array | null> {
  const full = await decodeColourFull(input);
  return full && colourOf(full, r);
}

/**
 * The whole image as interleaved 8-bit sRGB (w×h), or null for an image of fewer than three channels. Started
 * before the analysed area is known (libvips decodes off the main thread while the scale bar is looked for); the
 * area is cut out by colourOf.
 */
export async function decodeColourFull(input: Uint8Array | Buffer): Promise<{ rgb: Uint8Array; width: number; height: number } | null> {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const meta = await sharp(buf, { limitInputPixels: MAX_PIXELS }).metadata();
  if ((meta.channels ?? 1) < 3) return null;
  const { data, info } = await sharp(buf, { limitInputPixels: MAX_PIXELS })
    .flatten({ background: '#000000' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** The area `r` of a decoded colour image, or null when every pixel in it is grey (R = G = B). */
export function colourOf(full: { rgb: Uint8Array; width: number }, r: Rect): Uint8Array | null {
  const rgb = new Uint8Array(3 * r.width * r.height);
  for (let y = 0; y < r.height; y++) {
    const from = 3 * ((r.y + y) * full.width + r.x);
    rgb.set(full.rgb.subarray(from, from + 3 * r.width), 3 * y * r.width);
  }
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i] !== rgb[i + 1] || rgb[i] !== rgb[i + 2]) return rgb;
  return null;
}

/** Float pixels → 8 bit between the 0.01 % and 99.99 % points of the finite values (non-finite → 0). */
export function stretchFloat(f: Float32Array): Uint8Array {
  const finite: number[] = [];
  const stride = Math.max(1, Math.floor(f.length / 1_000_000));
  for (let i = 0; i < f.length; i += stride) if (Number.isFinite(f[i])) finite.push(f[i]);
  const out = new Uint8Array(f.length);
  if (!finite.length) return out;
  finite.sort((a, b) => a - b);
  const lo = finite[Math.floor((finite.length - 1) * 0.0001)];
  let hi = finite[Math.ceil((finite.length - 1) * 0.9999)];
  if (!(hi > lo)) hi = lo + 1;
  const s = 255 / (hi - lo);
  for (let i = 0; i < f.length; i++) {
    const v = f[i];
    if (!Number.isFinite(v)) continue;
    const q = (v - lo) * s;
    out[i] = q < 0 ? 0 : q > 255 ? 255 : Math.round(q);
  }
  return out;
}

export function cropGray(img: Gray, r: Rect): Gray {
  const out = new Uint8Array(r.width * r.height);
  for (let y = 0; y < r.height; y++) out.set(img.data.subarray((r.y + y) * img.width + r.x, (r.y + y) * img.width + r.x + r.width), y * r.width);
  return { width: r.width, height: r.height, data: out };
}

/**
 * The first channel of a label/mask image at its own depth (8 or 16 bit). sharp's extractChannel and 8-bit output
 * scale a 16-bit image down (a label of 1–255 would read as 0), so a 16-bit one stays in its 16-bit colour space
 * (grey16 or rgb16) and the first sample of each pixel is taken.
 */
export async function maskFirstChannel(input: Buffer | string): Promise<{ values: Uint16Array; width: number; height: number }> {
  const meta = await sharp(input).metadata();
  if (meta.depth !== 'ushort') {
    const { data, info } = await sharp(input).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    return { values: Uint16Array.from(data), width: info.width, height: info.height };
  }
  const { data, info } = await sharp(input)
    .toColourspace((meta.channels ?? 1) <= 2 ? 'grey16' : 'rgb16')
    .raw({ depth: 'ushort' })
    .toBuffer({ resolveWithObject: true });
  const all = new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2);
  const values = new Uint16Array(info.width * info.height);
  for (let i = 0; i < values.length; i++) values[i] = all[i * info.channels];
  return { values, width: info.width, height: info.height };
}

/** Decodes a label/mask PNG to a per-pixel label array (first channel, 8 or 16 bit). */
export async function decodeMask(input: Uint8Array | Buffer, width: number, height: number): Promise<Uint16Array> {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (!sniffFormat(buf)) throw new AnalysisError('INVALID_MASK', 'Mask must be a PNG/TIFF label image');
  try {
    const { values, width: w, height: h } = await maskFirstChannel(buf);
    if (w !== width || h !== height) throw new AnalysisError('INVALID_MASK', `Mask is ${w}×${h} but the analysed image is ${width}×${height}`);
    return values;
  } catch (e) {
    if (e instanceof AnalysisError) throw e;
    throw new AnalysisError('INVALID_MASK', `Corrupt mask image: ${(e as Error).message}`);
  }
}

export function encodePng(rgb: Uint8Array, width: number, height: number, channels: 1 | 3 | 4 = 3): Promise<Buffer> {
  return sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), { raw: { width, height, channels } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
}

/**
 * Gaussian blur by libvips (sharp), border replicated. Native code: about 4× faster than OpenCV's
 * WebAssembly build on one core. The mask reaches out to 1 % amplitude (±3σ, as OpenCV's kernel).
 * libvips rounds the integer mask so that its sum can exceed its scale (σ = 1.2: grey 200 blurs to
 * 204); that gain is measured once per σ on a flat image and divided out through a lookup table, so
 * the result stays within about one grey level of a unit-gain Gaussian.
 */
export async function blurGray(img: Gray, sigma: number): Promise<Gray> {
  if (sigma <= 0) return img;
  const { width, height } = img;
  const [out, lut] = await Promise.all([vipsBlur(img.data, width, height, sigma), gainCorrection(sigma)]);
  if (lut) for (let i = 0; i < out.length; i++) out[i] = lut[out[i]];
  return { width, height, data: out };
}

async function vipsBlur(data: Uint8Array, width: number, height: number, sigma: number): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels: 1 },
    limitInputPixels: false,
  })
    .blur({ sigma, minAmplitude: 0.01, precision: 'integer' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

const gainLuts = new Map<number, Promise<Uint8Array | null>>();
/** Lookup table dividing out libvips' DC gain for `sigma` (flat grey 250 → measured level); null when there is none. */
function gainCorrection(sigma: number): Promise<Uint8Array | null> {
  let lut = gainLuts.get(sigma);
  if (!lut) {
    lut = vipsBlur(new Uint8Array(32 * 32).fill(250), 32, 32, sigma).then((flat) => {
      const gain = flat[16 * 32 + 16] / 250;
      if (gain === 1) return null;
      const t = new Uint8Array(256);
      for (let v = 0; v < 256; v++) t[v] = Math.min(255, Math.round(v / gain));
      return t;
    });
    gainLuts.set(sigma, lut);
  }
  return lut;
}

/** Grey image to RGB with a given colour painted where `mask` is set (alpha blend). */
export function overlayRgb(img: Gray, layers: { mask: Uint8Array; color: [number, number, number]; alpha?: number }[]): Uint8Array {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const v = img.data[i];
    out[i * 3] = v;
    out[i * 3 + 1] = v;
    out[i * 3 + 2] = v;
  }
  // one 256-entry table per channel and layer: the same rounding as blending pixel by pixel
  const lut = new Uint8Array(3 * 256);
  for (const { mask, color, alpha = 1 } of layers) {
    for (let c = 0; c < 3; c++) for (let v = 0; v < 256; v++) lut[c * 256 + v] = Math.round(v * (1 - alpha) + color[c] * alpha);
    for (let i = 0, j = 0; i < n; i++, j += 3) {
      if (!mask[i]) continue;
      out[j] = lut[out[j]];
      out[j + 1] = lut[256 + out[j + 1]];
      out[j + 2] = lut[512 + out[j + 2]];
    }
  }
  return out;
}

/** A mask (W×H, e.g. the analysed area) sampled at w×h, nearest pixel centre. */
export function sampleMask(mask: Uint8Array, W: number, H: number, w: number, h: number): Uint8Array {
  const v = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      v[y * w + x] = mask[Math.min(H - 1, Math.floor(((y + 0.5) * H) / h)) * W + Math.min(W - 1, Math.floor(((x + 0.5) * W) / w))];
  return v;
}
