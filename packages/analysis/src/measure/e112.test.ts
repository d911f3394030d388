import { describe, expect, it } from 'vitest';
import { e112Intercept } from './e112.ts';

/** A label image from rows of characters: digits are grains, '.' a boundary pixel, 'x' outside the analysed area. */
function image(rows: string[]) {
  const h = rows.length,
    w = rows[0].length;
  const labels = new Int32Array(w * h);
  const valid = new Uint8Array(w * h).fill(1);
  rows.forEach((r, y) =>
    [...r].forEach((c, x) => {
      const i = y * w + x;
      if (c === 'x') valid[i] = 0;
      else labels[i] = c === '.' ? 0 : Number(c);
    }),
  );
  return { labels, valid, w, h };
}

describe('E112 intercept counting', () => {
  it('counts one intersection per boundary crossed, and the test-line length', () => {
    const { labels, valid, w, h } = image(['111.222.333', '111.222.333', '111.222.333', '111.222.333']);
    // spacing 4: one horizontal line (y = 2) and three vertical lines (x = 2, 6, 10), each inside one grain
    const r = e112Intercept(labels, w, h, valid, 4);
    expect(r.intersections).toBe(2);
    expect(r.lengthPx).toBe(11 + 3 * 4);
    expect(r.lines).toBe(4);
    expect(r.meanInterceptPx).toBe(23 / 2);
  });

  it('takes a grain run shorter than 3 px between boundary pixels as the boundary flickering along the line', () => {
    const { labels, valid, w, h } = image(['1111.2.111', '1111.2.111', '1111.2.111']);
    // y = 1 meets the band '.2.' once: in grain 1 before and after it, with grain 2 beside it: a tangent
    const r = e112Intercept(labels, w, h, valid, 2, 3);
    expect(r.tangents).toBe(1);
    expect(r.intersections).toBe(1);
    // counted without the flicker rule, the 1 px run of grain 2 is a grain: two crossings
    expect(e112Intercept(labels, w, h, valid, 2, 1).intersections).toBe(2);
  });

  it('counts a crossing through a triple point as 1½', () => {
    // grains 1 (left), 2 (right) and 3 (bottom) meet below (4, 2)
    const { labels, valid, w, h } = image(['1111.2222', '1111.2222', '1111.2222', '111.3.222', '11.333.22', '1.33333.2']);
    // spacing 5: the line y = 2 crosses the 1|2 boundary next to the junction (1½); x = 2 crosses 1|3 (1);
    // x = 7 ends on the 3|2 boundary (½)
    const r = e112Intercept(labels, w, h, valid, 5);
    expect(r.triplePoints).toBe(1);
    expect(r.intersections).toBe(1.5 + 1 + 0.5);
  });

  it('counts a line that ends on a boundary as ½ and a speck inside a grain as nothing', () => {
    const a = image(['111111.', '111111.', '1111111']);
    // y = 1 (spacing 2, offset 1): the line ends on the boundary pixel at x = 6
    const r = e112Intercept(a.labels, a.w, a.h, a.valid, 2);
    const horizontal = 0.5;
    // vertical lines x = 1, 3, 5 stay in grain 1; nothing else
    expect(r.intersections).toBe(horizontal);
    const b = image(['1111111', '111.111', '1111111']);
    expect(e112Intercept(b.labels, b.w, b.h, b.valid, 2).intersections).toBe(0);
  });

  it('counts a tangent hit as 1', () => {
    // line y = 1 touches the boundary pixel (3,1) of grain 2 (below it) and stays in grain 1
    const { labels, valid, w, h } = image(['1111111', '111.111', '11.2.11', '1.222.1']);
    // lines y = 1, 3 and x = 1, 3, 5: y = 1 tangent (1); y = 3 crosses 1|2 and 2|1 (2); x = 1 and x = 5 end on a
    // boundary (½ each); x = 3 crosses 1|2 (1)
    const r = e112Intercept(labels, w, h, valid, 2);
    expect(r.tangents).toBe(1);
    expect(r.intersections).toBe(1 + 2 + 0.5 + 1 + 0.5);
  });

  it('cuts test lines at excluded pixels: each piece has its own ends', () => {
    const { labels, valid, w, h } = image(['11.x22', '11.x22', '11.x22']);
    // y = 1: piece "11." ends on a boundary (½), piece "22" has no boundary
    const r = e112Intercept(labels, w, h, valid, 2);
    expect(r.intersections).toBe(0.5);
    expect(r.lengthPx).toBe(3 + 2 + 3 + 3); // the row's two pieces, then x = 1 and x = 5 in full; x = 3 is all excluded
  });

  it('counts grains side by side without boundary pixels', () => {
    const { labels, valid, w, h } = image(['1122', '1122']);
    expect(e112Intercept(labels, w, h, valid, 2).intersections).toBe(1);
  });
});

describe('E112 intercept counting on a zero-width partition (20261201: every pixel belongs to a grain)', () => {
  it('counts each label change along a test line as one intersection, short crossings included', () => {
    // grain 2 is only 2 px wide: a boundary band of ~5 px would have swallowed it, a partition does not
    const { labels, valid, w, h } = image(['1111122333', '1111122333', '1111122333', '1111122333']);
    // spacing 4: one horizontal line (y = 2) and vertical lines at x = 2, 6 (each inside one grain)
    const r = e112Intercept(labels, w, h, valid, 4);
    expect(r.intersections).toBe(2);
    expect(r.triplePoints).toBe(0);
    expect(r.lengthPx).toBe(10 + 2 * 4);
  });

  it('counts a crossing at a triple point 1½', () => {
    // left grain 1; the right half is grain 2 above and grain 3 below row 3: a horizontal line at y = 3 meets the
    // triple junction where 1, 2 and 3 touch
    const { labels, valid, w, h } = image(['11112222', '11112222', '11112222', '11113333', '11113333', '11113333', '11113333']);
    const r = e112Intercept(labels, w, h, valid, 6);
    // horizontal line y = 3: 1 → 3 at the junction (1½); vertical line x = 3 inside grain 1: nothing
    expect(r.triplePoints).toBe(1);
    expect(r.intersections).toBe(1.5);
  });

  it('counts nothing for line ends inside a grain and ½ where a line piece ends on the excluded area at a boundary', () => {
    const inside = image(['111222', '111222', '111222']);
    // one horizontal line (y = 1): one crossing; vertical lines at x = 1, 4: inside grains, their ends count nothing
    expect(e112Intercept(inside.labels, inside.w, inside.h, inside.valid, 3).intersections).toBe(1);
    // the same field cut by an excluded column at the boundary: each piece ends in its grain, no crossing is left
    const cut = image(['111x222', '111x222', '111x222']);
    expect(e112Intercept(cut.labels, cut.w, cut.h, cut.valid, 3).intersections).toBe(0);
  });

  it('gives the mean intercept of a regular partition exactly', () => {
    // 6 × 6 px grains in a 36 × 36 field: every horizontal and vertical test line crosses 5 boundaries over 36 px
    const rows: string[] = [];
    for (let y = 0; y < 36; y++) {
      let r = '';
      for (let x = 0; x < 36; x++) r += String(1 + ((Math.floor(x / 6) + Math.floor(y / 6)) % 9));
      rows.push(r);
    }
    const { labels, valid, w, h } = image(rows);
    const r = e112Intercept(labels, w, h, valid, 6);
    // lines at 3, 9, … 33 run through grain middles: no triple points, 5 crossings each
    expect(r.triplePoints).toBe(0);
    expect(r.intersections).toBe(12 * 5);
    expect(r.meanInterceptPx).toBeCloseTo((12 * 36) / 60, 10);
  });
});
