import { describe, expect, it } from 'vitest';
import {
  brushRadius,
  cssTransform,
  frameToMask,
  initialView,
  isPanGesture,
  maskToFrame,
  MAX_SCALE,
  panBy,
  resizeView,
  viewForKey,
  viewForZoomKey,
  wheelFactor,
  zoomAt,
  zoomPercent,
  zoomStep,
  type Geometry,
} from './viewTransform';

/** A 640×480 mask shown in a 320×240 frame (the fitted image at half size). */
const g: Geometry = { frameW: 320, frameH: 240, maskW: 640, maskH: 480 };

describe('pointer to mask pixels', () => {
  it('maps the fitted frame onto the whole mask', () => {
    expect(frameToMask(initialView, 0, 0, g)).toEqual([0, 0]);
    expect(frameToMask(initialView, 320, 240, g)).toEqual([640, 480]);
    expect(frameToMask(initialView, 100, 50, g)).toEqual([200, 100]);
  });
  it('stays exact when zoomed and panned: the mask pixel under the cursor is the one painted', () => {
    // zoomed 4× at the frame's centre: the centre stays the mask's centre, the frame shows a quarter of its width
    const v = zoomAt(initialView, 4, 160, 120, 320, 240);
    expect(v.scale).toBe(4);
    expect(frameToMask(v, 160, 120, g)).toEqual([320, 240]);
    expect(frameToMask(v, 0, 0, g)).toEqual([240, 180]);
    expect(frameToMask(v, 320, 240, g)).toEqual([400, 300]);
    // one screen pixel is half a mask pixel at 4× of a half-size fit
    const [a] = frameToMask(v, 10, 0, g);
    const [b] = frameToMask(v, 11, 0, g);
    expect(b - a).toBeCloseTo(0.5);
    // panning by 40 screen pixels moves the view by 20 mask pixels
    const p = panBy(v, 40, 0, 320, 240);
    expect(frameToMask(p, 160, 120, g)[0]).toBeCloseTo(300);
  });
  it('is the inverse of mask to frame at any view', () => {
    const v = panBy(zoomAt(initialView, 3, 50, 200, 320, 240), -17, 9, 320, 240);
    for (const [mx, my] of [
      [0, 0],
      [123.5, 77.25],
      [639, 479],
    ]) {
      const [fx, fy] = maskToFrame(v, mx, my, g);
      const [bx, by] = frameToMask(v, fx, fy, g);
      expect(bx).toBeCloseTo(mx, 9);
      expect(by).toBeCloseTo(my, 9);
    }
  });
});

describe('resizing the frame', () => {
  it('keeps the same part of the mask in view', () => {
    const v = panBy(zoomAt(initialView, 2, 100, 60, 320, 240), -30, 10, 320, 240);
    const small: Geometry = { frameW: 160, frameH: 120, maskW: 640, maskH: 480 };
    const r = resizeView(v, 320, 240, 160, 120);
    expect(r.scale).toBe(v.scale);
    const [ax, ay] = frameToMask(v, 160, 120, g);
    const [bx, by] = frameToMask(r, 80, 60, small);
    expect(bx).toBeCloseTo(ax, 9);
    expect(by).toBeCloseTo(ay, 9);
    expect(resizeView(v, 320, 240, 320, 240)).toBe(v);
  });
});

describe('brush and indicator', () => {
  it('sizes the brush in screen pixels: finer in mask pixels when zoomed in', () => {
    expect(brushRadius(12, initialView, g)).toBe(12); // 6 screen px × 2 mask px per screen px
    expect(brushRadius(12, { scale: 4, x: 0, y: 0 }, g)).toBe(3);
  });
  it('shows the zoom in percent of the fitted image', () => {
    expect(zoomPercent(initialView)).toBe(100);
    expect(zoomPercent(zoomStep(initialView, 1, 320, 240))).toBe(125);
    expect(zoomPercent({ scale: 2.3456, x: 0, y: 0 })).toBe(235);
  });
  it('writes the CSS transform of the zoomed layer', () => {
    expect(cssTransform({ scale: 2, x: -10, y: -20.5 })).toBe('translate(-10px, -20.5px) scale(2)');
  });
});

describe('zoom and pan input', () => {
  it('zooms with the wheel: up in, down out', () => {
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(100)).toBeLessThan(1);
    expect(wheelFactor(0)).toBe(1);
  });
  it('zoom buttons step in and out at the centre within the limits', () => {
    let v = initialView;
    for (let i = 0; i < 30; i++) v = zoomStep(v, 1, 320, 240);
    expect(v.scale).toBe(MAX_SCALE);
    for (let i = 0; i < 30; i++) v = zoomStep(v, -1, 320, 240);
    expect(v).toEqual({ scale: 1, x: 0, y: 0 });
  });
  it('+ and − zoom, 0 fits; other keys are not zoom keys on the page', () => {
    const zoomed = viewForZoomKey(initialView, '+', 320, 240)!;
    expect(zoomed.scale).toBeGreaterThan(1);
    expect(viewForZoomKey(zoomed, '-', 320, 240)!.scale).toBeCloseTo(1);
    expect(viewForZoomKey(zoomAt(initialView, 5, 10, 10, 320, 240), '0', 320, 240)).toEqual(initialView);
    expect(viewForZoomKey(zoomed, 'ArrowLeft', 320, 240)).toBeNull();
    expect(viewForZoomKey(zoomed, 'b', 320, 240)).toBeNull();
    // the focused frame also pans with the arrows
    expect(viewForKey(zoomed, 'ArrowRight', 320, 240)!.x).toBeLessThan(zoomed.x);
  });
  it('pans with the middle button, with Space held, or with the hand tool', () => {
    expect(isPanGesture(1, false, 'paint')).toBe(true);
    expect(isPanGesture(0, true, 'paint')).toBe(true);
    expect(isPanGesture(0, false, 'pan')).toBe(true);
    expect(isPanGesture(0, false, 'paint')).toBe(false);
    expect(isPanGesture(0, false, 'fill')).toBe(false);
  });
});
