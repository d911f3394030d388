import { describe, expect, it } from 'vitest';
import { clampBox, hitTest, initialBox, moveBox, nudge, resizeBox, toNatural } from './cropBox';

const img = { width: 1000, height: 500 };

describe('initial box', () => {
  it('is 70 % of the displayed image and centred', () => {
    expect(initialBox(img)).toEqual({ x: 150, y: 75, width: 700, height: 350 });
  });
  it('respects the minimum on tiny images', () => {
    expect(initialBox({ width: 60, height: 60 })).toEqual({ x: 5, y: 5, width: 50, height: 50 });
  });
});

describe('move', () => {
  it('translates the box', () => {
    expect(moveBox({ x: 100, y: 100, width: 200, height: 100 }, 50, -20, img)).toEqual({ x: 150, y: 80, width: 200, height: 100 });
  });
  it('stops at the edges without changing size', () => {
    expect(moveBox({ x: 100, y: 100, width: 200, height: 100 }, -500, 900, img)).toEqual({ x: 0, y: 400, width: 200, height: 100 });
    expect(moveBox({ x: 700, y: 0, width: 200, height: 100 }, 500, 0, img)).toEqual({ x: 800, y: 0, width: 200, height: 100 });
  });
});

describe('resize', () => {
  const box = { x: 100, y: 100, width: 200, height: 200 };
  it('moves only the edges of the handle', () => {
    expect(resizeBox(box, 'e', 30, 999, img)).toEqual({ x: 100, y: 100, width: 230, height: 200 });
    expect(resizeBox(box, 'nw', -20, -30, img)).toEqual({ x: 80, y: 70, width: 220, height: 230 });
    expect(resizeBox(box, 's', 0, 50, img)).toEqual({ x: 100, y: 100, width: 200, height: 250 });
    expect(resizeBox(box, 'sw', 10, 10, img)).toEqual({ x: 110, y: 100, width: 190, height: 210 });
  });
  it('keeps at least 50×50', () => {
    expect(resizeBox(box, 'se', -1000, -1000, img)).toEqual({ x: 100, y: 100, width: 50, height: 50 });
    expect(resizeBox(box, 'nw', 1000, 1000, img)).toEqual({ x: 250, y: 250, width: 50, height: 50 });
  });
  it('stays inside the image', () => {
    expect(resizeBox(box, 'nw', -1000, -1000, img)).toEqual({ x: 0, y: 0, width: 300, height: 300 });
    expect(resizeBox(box, 'se', 5000, 5000, img)).toEqual({ x: 100, y: 100, width: 900, height: 400 });
  });
});

describe('clamp', () => {
  it('pulls a box back inside and enforces the minimum', () => {
    expect(clampBox({ x: -10, y: 480, width: 20, height: 5000 }, img)).toEqual({ x: 0, y: 0, width: 50, height: 500 });
  });
});

describe('hit test (20 px zone)', () => {
  const box = { x: 100, y: 100, width: 200, height: 100 };
  it('finds corners, edges, inside and outside', () => {
    expect(hitTest(box, 95, 95)).toBe('nw');
    expect(hitTest(box, 305, 205)).toBe('se');
    expect(hitTest(box, 200, 108)).toBe('n');
    expect(hitTest(box, 292, 150)).toBe('e');
    expect(hitTest(box, 200, 150)).toBe('move');
    expect(hitTest(box, 50, 150)).toBeNull();
  });
});

describe('to natural pixels', () => {
  it('scales by the natural/displayed ratio and rounds', () => {
    expect(toNatural({ x: 150, y: 75, width: 700, height: 350 }, img, { width: 4000, height: 2000 })).toEqual({
      x: 600,
      y: 300,
      width: 2800,
      height: 1400,
    });
    expect(toNatural({ x: 0.4, y: 0, width: 333.3, height: 100 }, { width: 1000, height: 1000 }, { width: 3, height: 3 })).toEqual({
      x: 0,
      y: 0,
      width: 1,
      height: 1,
    });
  });
  it('never leaves the image', () => {
    const n = toNatural({ x: 990, y: 490, width: 10, height: 10 }, img, { width: 101, height: 51 });
    expect(n.x + n.width).toBeLessThanOrEqual(101);
    expect(n.y + n.height).toBeLessThanOrEqual(51);
  });
});

describe('keyboard', () => {
  it('moves and resizes with arrows', () => {
    const box = { x: 100, y: 100, width: 200, height: 100 };
    expect(nudge(box, 'ArrowLeft', 10, false, img)).toEqual({ x: 90, y: 100, width: 200, height: 100 });
    expect(nudge(box, 'ArrowDown', 10, true, img)).toEqual({ x: 100, y: 100, width: 200, height: 110 });
  });
});
