/**
 * Child process of render.ts: `render-child.ts <image> <bitDepth> <thumbnail.webp> <display.webp>`. Exits 0 when
 * both renditions are written, 1 when the image cannot be read.
 */
import { writeFile } from 'node:fs/promises';
import { renderInProcess } from './render.ts';

const [path, bitDepth, thumbnailPath, displayPath] = process.argv.slice(2);
try {
  const { thumbnail, display } = await renderInProcess(path, Number(bitDepth));
  await writeFile(thumbnailPath, thumbnail);
  await writeFile(displayPath, display);
  process.exit(0);
} catch (err) {
  process.stderr.write(String((err as Error).message ?? err));
  process.exit(1);
}
