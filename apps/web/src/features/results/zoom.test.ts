import { describe, expect, it } from 'vitest';
import { clampView, initialView, MAX_SCALE, panBy, viewForKey, zoomAt } from './zoom';

describe('zoom and pan of result images', () => {
  it('zooms around the cursor: the point under it stays put', () => {
    const v = zoomAt(initialView, 2, 100, 50, 400, 300);
    expect(v).toEqual({ scale: 2, x: -100, y: -50 });
    // the frame point (100, 50) shows image point ((100 − x) / scale) = 100 before and after
    expect((100 - v.x) / v.scale).toBe(100);
  });

  it('stays between 1× and 8× and never shows an empty border', () => {
    expect(zoomAt(initialView, 0.5, 10, 10, 400, 300)).toEqual(initialView);
    expect(zoomAt({ scale: 7, x: 0, y: 0 }, 2, 0, 0, 400, 300).scale).toBe(MAX_SCALE);
    expect(panBy({ scale: 2, x: 0, y: 0 }, 50, 50, 400, 300)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(panBy({ scale: 2, x: 0, y: 0 }, -1000, -1000, 400, 300)).toEqual({ scale: 2, x: -400, y: -300 });
    expect(clampView({ scale: 1, x: -20, y: 5 }, 400, 300)).toEqual(initialView);
  });

  it('answers the keyboard: + and − zoom at the centre, arrows pan, 0 resets, other keys nothing', () => {
    const zoomed = viewForKey(initialView, '+', 400, 300)!;
    expect(zoomed.scale).toBe(1.25);
    expect(zoomed.x).toBe(-50);
    const panned = viewForKey(zoomed, 'ArrowRight', 400, 300)!;
    expect(panned.x).toBe(-90);
    expect(viewForKey(panned, '0', 400, 300)).toEqual(initialView);
    expect(viewForKey(zoomed, 'a', 400, 300)).toBeNull();
  });
});
