import { imageWorkers } from './decode-pool.ts';
import { MAX_IMAGE_PIXELS } from './render.ts';

/**
 * Decodes of uploads other than analysis images (masks, logos, public images), each in the image decode pool
 * (decode-pool.ts): never in the server's process. They throw DecodeRefused (code PIXELS, DECODED, CORRUPT,
 * SIZE, MEMORY or TIMEOUT); the caller answers with its own error.
 */
const asBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * A mask upload re-encoded as PNG, decoded in the image decode pool; throws (DecodeRefused) when it is not
 * `width` × `height`, cannot be read, or its header says it decodes to more than `IMAGE_DECODE_MAX_MB`.
 */
export async function maskPng(path: string, width: number, height: number): Promise<Buffer> {
  const pool = imageWorkers();
  const out = await pool.run<{ png: Uint8Array }>({
    op: 'mask',
    path,
    width,
    height,
    maxPixels: MAX_IMAGE_PIXELS,
    maxDecodeBytes: pool.maxDecodeBytes,
  });
  return asBuffer(out.png);
}

/** A logo upload as PNG of at most `size` px, decoded in the image decode pool (throws DecodeRefused). */
export async function logoPng(data: Buffer, size: number, maxPixels: number): Promise<Buffer> {
  const pool = imageWorkers();
  const out = await pool.run<{ png: Uint8Array }>({ op: 'logo', data, size, maxPixels, maxDecodeBytes: pool.maxDecodeBytes });
  return asBuffer(out.png);
}

/** The header of an uploaded image (format and size), read in the image decode pool (throws DecodeRefused). */
export function imageHeader(path: string): Promise<{ format: string | null; width: number; height: number }> {
  const pool = imageWorkers();
  return pool.run({ op: 'metadata', path, maxPixels: MAX_IMAGE_PIXELS, maxDecodeBytes: pool.maxDecodeBytes });
}
