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

describe('E112 junction events on a zero-width partition (20261202: junctionEvents)', () => {
  const count = (rows: string[], spacing: number, events: boolean) => {
    const { labels, valid, w, h } = image(rows);
    return e112Intercept(labels, w, h, valid, spacing, 3, undefined, events);
  };

  it('counts a line through the tip of a third grain once, 1½, where the 3×3 rule counts its two crossings 1½ each', () => {
    // grain 3 comes up from below as a wedge whose tip is the single pixel (3, 1) on the line y = 1
    const rows = ['1112222', '1113222', '1133322', '1333332'];
    const r = count(rows, 2, true);
    // y = 1: 1 → 3 (1 px) → 2 is one triple-point event (1½); y = 3: 1 → 3 → 2 (1 each); x = 1: 1 → 3 (1);
    // x = 3: 2 → 3 with grain 1 beside both pixels, the junction on that edge (1½); x = 5: 2 → 3 (1)
    expect(r.triplePoints).toBe(2);
    expect(r.intersections).toBe(1.5 + 2 + 1 + 1.5 + 1);
    const old = count(rows, 2, false);
    expect(old.intersections).toBeGreaterThan(r.intersections);
  });

  it('makes a straight crossing a triple point only when the third grain lies beside both its pixels', () => {
    // y = 1 crosses 1 | 2 between x = 2 and 3; grain 3 lies below both pixels: the junction is on that edge
    const on = count(['1112222', '1112222', '1133322'], 2, true);
    expect(on.triplePoints).toBe(1);
    // the third grain beside one pixel only (the junction at the edge's corner): a plain crossing
    // (y = 2 crosses 1 | 3 with grain 2 above only the right pixel; x = 6 crosses 2 | 3 inside the right half)
    const corner = count(['11112222', '11112222', '11113333', '11113333'], 4, true);
    expect(corner.triplePoints).toBe(0);
    expect(corner.intersections).toBe(2);
  });

  it('counts a thin grain that goes on across the line as two crossings, and a boundary’s flicker as one', () => {
    // grain 2 is a 2 px strip across the whole field: in and out
    const strip = count(['1111122333', '1111122333', '1111122333', '1111122333'], 4, true);
    expect(strip.intersections).toBe(2);
    expect(strip.triplePoints).toBe(0);
    // the 1 | 2 boundary runs along the line y = 1 and steps across it: 1 → 2 → 1 → 2 over 1-px runs is one crossing
    const flicker = count(['1111111111', '1111211222', '1222222222'], 2, true);
    // vertical lines x = 1, 3, 5, 7, 9 cross 1 | 2 once each; the row y = 1 crosses once (1 → 2 → 1 → 2 is flicker)
    expect(flicker.intersections).toBe(5 + 1);
    expect(count(['1111111111', '1111211222', '1222222222'], 2, false).intersections).toBeGreaterThan(5 + 1);
  });

  it('agrees with the plain count of label changes on a fine random partition (no triple-point bias)', () => {
    // a Voronoi partition of ~12 px cells, drawn here with a fixed seed
    const w = 240,
      h = 240;
    let s = 7;
    const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const sites = Array.from({ length: 400 }, () => [rand() * w, rand() * h]);
    const labels = new Int32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let best = 0,
          bd = Infinity;
        sites.forEach(([sx, sy], k) => {
          const d = (sx - x) ** 2 + (sy - y) ** 2;
          if (d < bd) [bd, best] = [d, k + 1];
        });
        labels[y * w + x] = best;
      }
    const valid = new Uint8Array(w * h).fill(1);
    let changes = 0;
    for (let y = 2; y < h; y += 5) for (let x = 1; x < w; x++) if (labels[y * w + x] !== labels[y * w + x - 1]) changes++;
    for (let x = 2; x < w; x += 5) for (let y = 1; y < h; y++) if (labels[y * w + x] !== labels[(y - 1) * w + x]) changes++;
    const events = e112Intercept(labels, w, h, valid, 5, 3, undefined, true).intersections;
    const old = e112Intercept(labels, w, h, valid, 5).intersections;
    expect(Math.abs(events / changes - 1)).toBeLessThan(0.02);
    // the 3×3 rule counts junctions seen within a pixel twice
    expect(old / changes - 1).toBeGreaterThan(0.05);
  });
});
