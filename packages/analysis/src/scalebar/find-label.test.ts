import { describe, expect, it } from 'vitest';
import { findLabel } from '../scalebar.js';

/** A dark w×h image with bright rectangles. */
function image(w: number, h: number, rects: [number, number, number, number][]) {
  const data = new Uint8Array(w * h).fill(20);
  for (const [x0, y0, rw, rh] of rects) for (let y = y0; y < y0 + rh; y++) data.fill(250, y * w + x0, y * w + x0 + rw);
  return { width: w, height: h, data };
}

describe('the scale-bar label beside a bar (findLabel)', () => {
  it('finds the text block above a bar', () => {
    // bar 100×6 at y 80; a "label" 40×12 at y 60 over its middle
    const img = image(200, 120, [
      [50, 80, 100, 6],
      [80, 60, 40, 12],
    ]);
    expect(findLabel(img, { x: 50, y: 80, width: 100, height: 6 }, { x: 0, y: 0, width: 200, height: 120 })).toEqual({
      x: 80,
      y: 60,
      width: 40,
      height: 12,
    });
  });

  it('ends for a bar on the edge of the searched bounds (a crop cut through the bar strip)', () => {
    // the bar's first row is the bounds' first row and its last the bounds' last: there is no row to look at above
    // or below it; this looped forever (y walked out of the image) and hung the job
    const img = image(200, 120, [[50, 40, 100, 6]]);
    expect(findLabel(img, { x: 50, y: 40, width: 100, height: 6 }, { x: 0, y: 40, width: 200, height: 6 })).toBeNull();
    // a bar starting above the bounds (the bounds cut through it)
    expect(findLabel(img, { x: 50, y: 38, width: 100, height: 6 }, { x: 0, y: 40, width: 200, height: 80 })).toBeNull();
  });
});
