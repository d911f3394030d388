import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OVERLAY_DISPLAY_SIZE, displayOverlays } from './overlays.ts';

const png = (width: number, height: number, channels: 1 | 3) => {
  const img = sharp({ create: { width, height, channels: 3, background: channels === 1 ? '#000' : '#804020' } });
  return (channels === 1 ? img.greyscale() : img).png().toBuffer();
};

describe('overlays sent at display resolution (issue 30 item 4)', () => {
  it('scales the overlay of an image item down to the display size and leaves the full-resolution mask and small overlays as they are', async () => {
    const overlay = await png(4000, 3000, 3);
    const small = await png(800, 600, 3);
    const mask = await png(4000, 3000, 1);
    const out = await displayOverlays(
      [
        { type: 'image', filename: 'overlay.png' },
        { type: 'image', filename: 'small.png' },
        { type: 'data-table', rows: [] },
      ],
      [
        { filename: 'overlay.png', data: overlay },
        { filename: 'small.png', data: small },
        { filename: 'segmentation.png', data: mask },
      ],
    );
    expect(out.map((f) => f.filename)).toEqual(['overlay.png', 'small.png', 'segmentation.png']);
    const meta = await sharp(out[0].data).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([OVERLAY_DISPLAY_SIZE, 1536, 'png']);
    expect(out[1].data).toBe(small);
    expect(out[2].data).toBe(mask);
  });

  it('sends an overlay it cannot read unchanged', async () => {
    const junk = Buffer.from('not a png');
    const out = await displayOverlays([{ type: 'image', filename: 'x.png' }], [{ filename: 'x.png', data: junk }]);
    expect(out[0].data).toBe(junk);
  });
});
