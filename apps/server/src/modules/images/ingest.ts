import sharp from 'sharp';
import { AppError } from '../../platform/http/errors.ts';
import { sniffImage } from '../users/service.ts';
import { fileHead, type ReceivedFile } from '../../platform/storage/upload.ts';
import { MAX_IMAGE_PIXELS, render } from './render.ts';

export { MAX_IMAGE_PIXELS, THUMBNAIL_SIZE, DISPLAY_SIZE } from './render.ts';

export interface IngestedImage {
  file: ReceivedFile;
  format: 'png' | 'jpeg' | 'tiff';
  width: number;
  height: number;
  bitDepth: number;
  thumbnail: Buffer;
  display: Buffer;
}

const bitDepthOf = (depth: string | undefined) => (depth === 'ushort' || depth === 'short' ? 16 : depth === 'float' || depth === 'uint' ? 32 : 8);

/**
 * Checks one received file by its content (PNG, JPEG or TIFF 8/16-bit, from the file's head), refuses anything
 * else, corrupt data and images over the pixel limit, and makes the renditions (render.ts). The file is read from disk by libvips, never
 * loaded whole. Throws an AppError
 * naming the file; nothing is stored here.
 */
export async function ingestImage(file: ReceivedFile): Promise<IngestedImage> {
  const name = file.filename;
  const format = sniffImage(await fileHead(file.path));
  if (!format)
    throw new AppError(415, 'UNSUPPORTED_IMAGE', 'errors.unsupportedAnalysisImage', { file: name }, [
      { field: 'files', key: 'errors.unsupportedAnalysisImage', vars: { file: name } },
    ]);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(file.path, { limitInputPixels: false }).metadata();
  } catch {
    throw corrupt(name);
  }
  if (!meta.width || !meta.height) throw corrupt(name);
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new AppError(413, 'IMAGE_TOO_LARGE', 'errors.imageTooLarge', { file: name, max: '100' }, [
      { field: 'files', key: 'errors.imageTooLarge', vars: { file: name, max: '100' } },
    ]);
  }
  const bitDepth = bitDepthOf(meta.depth);
  try {
    const { thumbnail, display } = await render(file.path, file.size, bitDepth);
    return { file, format, width: meta.width, height: meta.height, bitDepth, thumbnail, display };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw corrupt(name);
  }
}

const corrupt = (file: string) =>
  new AppError(422, 'CORRUPT_IMAGE', 'errors.corruptImage', { file }, [{ field: 'files', key: 'errors.corruptImage', vars: { file } }]);
