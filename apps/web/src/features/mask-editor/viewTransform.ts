/**
 * The mask editor's view as pure rules. The frame is the image fitted to the page (the mask canvas fills it); the
 * view zooms and pans the image inside it with the rules of the result figures (../results/zoom.ts: scale ≥ 1,
 * offset in frame pixels, the image always covers the frame). What the editor adds: a pointer in the frame maps
 * back to mask pixels through that transform, so painting is exact at every zoom, and the brush (sized in
 * screen pixels) becomes finer in mask pixels as one zooms in.
 */
import { clampView, viewForKey, zoomAt, ZOOM_STEP, type ZoomView } from '../results/zoom';
import type { Point } from './maskState';
import type { Tool } from './maskImage';

export type { ZoomView };
/** The focused frame's zoom and pan keys (zoom keys and arrows) are the result figures' (viewForKey). */
export { initialView, zoomAt, panBy, viewForKey, ZOOM_STEP, MAX_SCALE, MIN_SCALE } from '../results/zoom';

/** The frame's size in screen pixels and the mask's size in mask pixels. */
export interface Geometry {
  frameW: number;
  frameH: number;
  maskW: number;
  maskH: number;
}

/** Frame point (pixels from the frame's top left corner) → mask point (fractional mask pixels). */
export function frameToMask(v: ZoomView, px: number, py: number, g: Geometry): Point {
  return [(((px - v.x) / v.scale) * g.maskW) / g.frameW, (((py - v.y) / v.scale) * g.maskH) / g.frameH];
}

/** Mask point → frame point (the inverse of frameToMask). */
export function maskToFrame(v: ZoomView, mx: number, my: number, g: Geometry): Point {
  return [v.x + ((mx * g.frameW) / g.maskW) * v.scale, v.y + ((my * g.frameH) / g.maskH) * v.scale];
}

/** Mask pixels per screen pixel at this view (fitted: maskW / frameW; halves with every doubling of the zoom). */
export const maskPerScreen = (v: ZoomView, g: Geometry) => g.maskW / (g.frameW * v.scale);

/** The brush radius in mask pixels for a brush diameter in screen pixels. */
export const brushRadius = (diameterPx: number, v: ZoomView, g: Geometry) => (diameterPx / 2) * maskPerScreen(v, g);

/** The zoom indicator: the scale in percent of the fitted image (100 % = the whole image in the frame). */
export const zoomPercent = (v: ZoomView) => Math.round(v.scale * 100);

/** The zoom factor of one wheel notch (up zooms in). */
export const wheelFactor = (deltaY: number) => (deltaY < 0 ? ZOOM_STEP : deltaY > 0 ? 1 / ZOOM_STEP : 1);

/** Zoom keys that act anywhere on the page (+ and − zoom at the centre, 0 fits); null for other keys. */
export function viewForZoomKey(v: ZoomView, key: string, w: number, h: number): ZoomView | null {
  return ['+', '=', '-', '0'].includes(key) ? viewForKey(v, key, w, h) : null;
}

/** Whether a press in the frame pans rather than paints: the middle button, Space held, or the hand tool. */
export const isPanGesture = (button: number, spaceHeld: boolean, tool: Tool) => button === 1 || spaceHeld || tool === 'pan';

/** The view after a zoom button press: in (1) or out (−1) at the frame's centre. */
export const zoomStep = (v: ZoomView, dir: 1 | -1, w: number, h: number) => zoomAt(v, dir > 0 ? ZOOM_STEP : 1 / ZOOM_STEP, w / 2, h / 2, w, h);

/** The same view after the frame was resized (a narrower window): the offset scales with the frame. */
export function resizeView(v: ZoomView, oldW: number, oldH: number, newW: number, newH: number): ZoomView {
  if (oldW <= 0 || oldH <= 0 || (oldW === newW && oldH === newH)) return v;
  return clampView({ scale: v.scale, x: (v.x * newW) / oldW, y: (v.y * newH) / oldH }, newW, newH);
}

/** The CSS transform of the zoomed layer (origin at its top left). */
export const cssTransform = (v: ZoomView) => `translate(${v.x}px, ${v.y}px) scale(${v.scale})`;
