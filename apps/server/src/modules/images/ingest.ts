import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../../platform/http/errors.ts';
import { sniffImage } from '../users/service.ts';

/** Decompression-bomb guard: images up to 100 megapixels. */
export const MAX_IMAGE_PIXELS = 100_000_000;
export const THUMBNAIL_SIZE = 256;
export const DISPLAY_SIZE = 2048;

export interface IngestedImage {
  orginalFilename: string;
  format: 'png' | 'jpeg' | 'tiff';
  width: number;
  height: number;
  bitDepth: number;
  size: number;
  sha256: string;
  original: Buffer;
  thumbnail: Buffer;
  display: Buffer;
}

const bitDepthOf = (depth: string | undefined) => (depth === 'ushort' || depth === 'short' ? 16 : depth === 'float' || depth === 'uint' ? 32 : 8);

/**
 * Checks one uploaded file by its content (PNG, JPEG or TIFF 8/16-bit), refuses anything else, corrupt data
 * and images over the pixel limit, and makes the `thumbnail` (256 px) and `display` (long side ≤ 2048, WebP)
 * renditions. Throws an AppError naming the file; nothing is stored here.
 */
export async function ingestImage(filename: string, data: Buffer): Promise<IngestedImage> {
  const name = filename.replace(/[\\/]/g, '_').slice(0, 255) || 'image';
  const format = sniffImage(data);
  if (!format)
    throw new AppError(415, 'UNSUPPORTED_IMAGE', 'errors.unsupportedAnalysisImage', { file: name }, [
      { field: 'files', key: 'errors.unsupportedAnalysisImage', vars: { file: name } },
    ]);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw corrupt(name);
  }
  if (!meta.width || !meta.height) throw corrupt(name);
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new AppError(413, 'IMAGE_TOO_LARGE', 'errors.imageTooLarge', { file: name, max: '100' }, [
      { field: 'files', key: 'errors.imageTooLarge', vars: { file: name, max: '100' } },
    ]);
  }
  try {
    const base = () => sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    // 16-bit images are stretched to their own range for the 8-bit renditions, as an image viewer shows them.
    const prepare = (img: sharp.Sharp) => (bitDepthOf(meta.depth) > 8 ? img.normalise() : img);
    const [thumbnail, display] = await Promise.all([
      prepare(base()).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(),
      prepare(base()).resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 90 }).toBuffer(),
    ]);
    return {
      orginalFilename: name,
      format,
      width: meta.width,
      height: meta.height,
      bitDepth: bitDepthOf(meta.depth),
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      original: data,
      thumbnail,
      display,
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw corrupt(name);
  }
}

const corrupt = (file: string) =>
  new AppError(422, 'CORRUPT_IMAGE', 'errors.corruptImage', { file }, [{ field: 'files', key: 'errors.corruptImage', vars: { file } }]);
