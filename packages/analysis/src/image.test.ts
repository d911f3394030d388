import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colourOf, decodeColour, decodeColourFull } from './image.js';

/** A 7×5 RGB PNG whose pixel (x, y) is (10x, 20y, 3) and, with `grey`, (v, v, v) left of column 4. */
async function png(grey = false): Promise<Buffer> {
  const w = 7,
    h = 5;
  const raw = Buffer.alloc(3 * w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = grey && x < 4 ? [50, 50, 50] : [10 * x, 20 * y, 3];
      raw.set(v, 3 * (y * w + x));
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

describe('colour decoding', () => {
  it('cuts the analysed area out of the whole decoded image, pixel for pixel as decoding that area does', async () => {
    const input = await png();
    const full = (await decodeColourFull(input))!;
    expect([full.width, full.height]).toEqual([7, 5]);
    const r = { x: 2, y: 1, width: 4, height: 3 };
    const area = colourOf(full, r)!;
    expect(Array.from(area.subarray(0, 6))).toEqual([20, 20, 3, 30, 20, 3]);
    expect(Array.from(area.subarray(3 * 4 * 2, 3 * 4 * 2 + 3))).toEqual([20, 60, 3]);
    const { data } = await sharp(input).extract({ left: 2, top: 1, width: 4, height: 3 }).raw().toBuffer({ resolveWithObject: true });
    expect(Buffer.from(area)).toEqual(data);
    expect(Buffer.from((await decodeColour(input, r))!)).toEqual(data);
  });

  it('gives no colour for an area that is grey, and none for a grey image', async () => {
    const input = await png(true);
    const full = (await decodeColourFull(input))!;
    expect(colourOf(full, { x: 0, y: 0, width: 4, height: 5 })).toBeNull();
    expect(colourOf(full, { x: 0, y: 0, width: 5, height: 5 })).not.toBeNull();
    const grey = await sharp(Buffer.alloc(35, 90), { raw: { width: 7, height: 5, channels: 1 } })
      .png()
      .toBuffer();
    expect(await decodeColour(grey, { x: 0, y: 0, width: 7, height: 5 })).toBeNull();
  });
});
