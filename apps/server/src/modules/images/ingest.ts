import { AppError } from '../../platform/http/errors.ts';
import { sniffImage } from '../users/service.ts';
import { fileHead, type ReceivedFile } from '../../platform/storage/upload.ts';
import { DecodeRefused, imageWorkers } from './decode-pool.ts';
import { DISPLAY_SIZE, MAX_IMAGE_PIXELS, THUMBNAIL_SIZE } from './render.ts';

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

const asBuffer = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * Checks one received file by its content (PNG, JPEG or TIFF 8/16-bit, from the file's head), refuses anything
 * else, corrupt data, images over the pixel limit and images whose header says they decode to more than
 * `IMAGE_DECODE_MAX_MB`, and makes the renditions. Everything past the magic bytes — the header, the decode,
 * the renditions — happens in the image decode pool (decode-pool.ts), never in the server's process; the
 * file is read there from disk by libvips. Throws an AppError naming the file; nothing is stored here.
 */
export async function ingestImage(file: ReceivedFile): Promise<IngestedImage> {
  const name = file.filename;
  const format = sniffImage(await fileHead(file.path));
  if (!format)
    throw new AppError(415, 'UNSUPPORTED_IMAGE', 'errors.unsupportedAnalysisImage', { file: name }, [
      { field: 'files', key: 'errors.unsupportedAnalysisImage', vars: { file: name } },
    ]);
  const pool = imageWorkers();
  try {
    const out = await pool.run<{ width: number; height: number; bitDepth: number; display: Uint8Array; thumbnail: Uint8Array }>({
      op: 'ingest',
      path: file.path,
      displaySize: DISPLAY_SIZE,
      thumbnailSize: THUMBNAIL_SIZE,
      maxPixels: MAX_IMAGE_PIXELS,
      maxDecodeBytes: pool.maxDecodeBytes,
    });
    return {
      file,
      format,
      width: out.width,
      height: out.height,
      bitDepth: out.bitDepth,
      thumbnail: asBuffer(out.thumbnail),
      display: asBuffer(out.display),
    };
  } catch (err) {
    throw refusal(err, name, pool.settings.decodeMaxMb);
  }
}

/** The upload error for a refused decode (the file named in the message and in the field error). */
export function refusal(err: unknown, file: string, decodeMaxMb: number): AppError {
  if (err instanceof AppError) return err;
  const code = err instanceof DecodeRefused ? err.code : 'CORRUPT';
  if (code === 'PIXELS')
    return new AppError(413, 'IMAGE_TOO_LARGE', 'errors.imageTooLarge', { file, max: '100' }, [
      { field: 'files', key: 'errors.imageTooLarge', vars: { file, max: '100' } },
    ]);
  if (code === 'DECODED' || code === 'MEMORY' || code === 'TIMEOUT') {
    const max = String(decodeMaxMb);
    return new AppError(413, 'IMAGE_DECODE_TOO_LARGE', 'errors.imageDecodeTooLarge', { file, max }, [
      { field: 'files', key: 'errors.imageDecodeTooLarge', vars: { file, max } },
    ]);
  }
  return new AppError(422, 'CORRUPT_IMAGE', 'errors.corruptImage', { file }, [{ field: 'files', key: 'errors.corruptImage', vars: { file } }]);
}
