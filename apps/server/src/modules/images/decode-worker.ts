/**
 * A worker process of the image decode pool (decode-pool.ts): every decode of an uploaded image happens here,
 * never in the server's process. Tasks come over IPC one at a time; the answer is `{ok:true, value}` or
 * `{ok:false, code, message}`. The process watches its own memory: above `IMAGE_WORKER_MEMORY_MB` it exits
 * at once (the pool answers the task as too large and starts a fresh worker), so a decompression bomb that
 * passes the header check costs at most that much memory, and only here.
 */
import sharp from 'sharp';
import { decodedBytes, type DecodeTask, type TaskAnswer } from './decode-tasks.ts';

sharp.cache(false);
const memoryLimit = Number(process.env.IMAGE_WORKER_MEMORY_BYTES) || 1536 * 1024 * 1024;
export const MEMORY_EXIT_CODE = 75;

setInterval(() => {
  if (process.memoryUsage.rss() > memoryLimit) {
    process.stderr.write(`image worker over its memory limit (${memoryLimit} bytes)\n`);
    process.exit(MEMORY_EXIT_CODE);
  }
}, 20);

class Refused extends Error {
  constructor(
    readonly code: 'PIXELS' | 'DECODED' | 'CORRUPT' | 'SIZE',
    message: string,
  ) {
    super(message);
  }
}

const bitDepthOf = (depth: string | undefined) =>
  depth === 'ushort' || depth === 'short' ? 16 : depth === 'float' || depth === 'uint' || depth === 'int' ? 32 : depth === 'double' ? 64 : 8;

/** The header's size, checked against the limits before any pixel is decoded. */
async function header(input: string | Buffer, limits: { maxPixels: number; maxDecodeBytes: number }) {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new Refused('CORRUPT', (err as Error).message);
  }
  if (!meta.width || !meta.height) throw new Refused('CORRUPT', 'no size in the header');
  if (meta.width * meta.height > limits.maxPixels) throw new Refused('PIXELS', `${meta.width}×${meta.height} pixels`);
  const bytes = decodedBytes(meta);
  if (bytes > limits.maxDecodeBytes)
    throw new Refused(
      'DECODED',
      `${meta.width}×${meta.height}×${meta.channels ?? 1} channels×${bitDepthOf(meta.depth) / 8} bytes = ${bytes} bytes decoded`,
    );
  return { meta, bitDepth: bitDepthOf(meta.depth) };
}

async function run(task: DecodeTask): Promise<unknown> {
  switch (task.op) {
    case 'ingest': {
      const { meta, bitDepth } = await header(task.path, task);
      // One decode for both renditions: the display size (long side ≤ 2048) as raw pixels, then each encoded.
      // 16-bit images are stretched to their own range for the 8-bit renditions, as an image viewer shows them.
      let img = sharp(task.path, { limitInputPixels: task.maxPixels, failOn: 'error', sequentialRead: bitDepth <= 8 }).rotate();
      if (bitDepth > 8) img = img.normalise();
      let raw: { data: Buffer; info: sharp.OutputInfo };
      try {
        raw = await img
          .resize(task.displaySize, task.displaySize, { fit: 'inside', withoutEnlargement: true })
          .raw()
          .toBuffer({ resolveWithObject: true });
      } catch (err) {
        throw new Refused('CORRUPT', (err as Error).message);
      }
      const input = { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } };
      const [display, thumbnail] = await Promise.all([
        sharp(raw.data, input).webp({ quality: 90, effort: 2 }).toBuffer(),
        sharp(raw.data, input)
          .resize(task.thumbnailSize, task.thumbnailSize, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 80, effort: 2 })
          .toBuffer(),
      ]);
      return { width: meta.width, height: meta.height, bitDepth, display, thumbnail };
    }
    case 'mask': {
      const { meta } = await header(task.path, task);
      if (meta.width !== task.width || meta.height !== task.height) throw new Refused('SIZE', `${meta.width}×${meta.height}`);
      try {
        return { png: await sharp(task.path, { limitInputPixels: task.maxPixels }).png().toBuffer() };
      } catch (err) {
        throw new Refused('CORRUPT', (err as Error).message);
      }
    }
    case 'logo': {
      const input = Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength);
      await header(input, task);
      try {
        return {
          png: await sharp(input, { limitInputPixels: task.maxPixels })
            .resize(task.size, task.size, { fit: 'inside', withoutEnlargement: true })
            .png()
            .toBuffer(),
        };
      } catch (err) {
        throw new Refused('CORRUPT', (err as Error).message);
      }
    }
    case 'metadata': {
      const { meta } = await header(task.path, task);
      return { format: meta.format ?? null, width: meta.width, height: meta.height };
    }
  }
}

process.on('message', (task: DecodeTask & { id: number }) => {
  run(task).then(
    (value) => process.send!({ id: task.id, ok: true, value, rss: process.memoryUsage.rss() } satisfies TaskAnswer),
    (err: unknown) =>
      process.send!({
        id: task.id,
        ok: false,
        code: err instanceof Refused ? err.code : 'CORRUPT',
        message: err instanceof Error ? err.message : String(err),
        rss: process.memoryUsage.rss(),
      } satisfies TaskAnswer),
  );
});
// the server went away: so does its worker
process.on('disconnect', () => process.exit(0));
