import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/** Decompression-bomb guard: images up to 100 megapixels. */
export const MAX_IMAGE_PIXELS = 100_000_000;
export const THUMBNAIL_SIZE = 256;
export const DISPLAY_SIZE = 2048;
/**
 * Originals larger than this are rendered in a child process: decoding a 190 MB image takes libvips and the
 * allocator ~100 MB that the server's process would keep; the child returns it to the system when it ends.
 */
export const RENDER_IN_PROCESS_MAX_BYTES = 32 * 1024 * 1024;

export interface Renditions {
  thumbnail: Buffer;
  display: Buffer;
}

/**
 * The `thumbnail` (256 px) and `display` (long side ≤ 2048, WebP) renditions of the image file at `path`, read
 * by libvips from disk (8-bit images once, top to bottom). 16-bit images are stretched to their own range for
 * the 8-bit renditions, as an image viewer shows them.
 */
export async function renderInProcess(path: string, bitDepth: number): Promise<Renditions> {
  const base = () => {
    const img = sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: bitDepth <= 8 }).rotate();
    return bitDepth > 8 ? img.normalise() : img;
  };
  const thumbnail = await base().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  const display = await base().resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 90 }).toBuffer();
  return { thumbnail, display };
}

const childMain = fileURLToPath(new URL('./render-child.ts', import.meta.url));

/** renderInProcess in a child process (render-child.ts), which writes the two renditions beside `path`. */
export async function renderInChild(path: string, bitDepth: number): Promise<Renditions> {
  const out = { thumbnail: `${path}.thumbnail.webp`, display: `${path}.display.webp` };
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', childMain, path, String(bitDepth), out.thumbnail, out.display], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.resume();
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`render child exited with ${code}`);
    return { thumbnail: await readFile(out.thumbnail), display: await readFile(out.display) };
  } finally {
    await Promise.all([rm(out.thumbnail, { force: true }), rm(out.display, { force: true })]);
  }
}

export function render(path: string, size: number, bitDepth: number): Promise<Renditions> {
  return size > RENDER_IN_PROCESS_MAX_BYTES ? renderInChild(path, bitDepth) : renderInProcess(path, bitDepth);
}
