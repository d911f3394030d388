/**
 * The view of a zoomable image as data (ZoomPanImage.tsx): `scale` ≥ 1 and the offset of the scaled image in
 * the frame, in frame pixels. Every change is a pure function of the old view, and the image never leaves the
 * frame (no empty border when zoomed in).
 */
export interface ZoomView {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
export const ZOOM_STEP = 1.25;
export const PAN_STEP = 40;
export const initialView: ZoomView = { scale: 1, x: 0, y: 0 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Keeps the scaled frame covering the frame: the offset lies in [size·(1 − scale), 0]. */
export function clampView(v: ZoomView, width: number, height: number): ZoomView {
  const scale = clamp(v.scale, MIN_SCALE, MAX_SCALE);
  return { scale, x: clamp(v.x, width * (1 - scale), 0), y: clamp(v.y, height * (1 - scale), 0) };
}

/** Zooms by `factor` keeping the point (px, py) of the frame where it is (the wheel's cursor, or the centre). */
export function zoomAt(v: ZoomView, factor: number, px: number, py: number, width: number, height: number): ZoomView {
  const scale = clamp(v.scale * factor, MIN_SCALE, MAX_SCALE);
  const k = scale / v.scale;
  return clampView({ scale, x: px - (px - v.x) * k, y: py - (py - v.y) * k }, width, height);
}

/** Moves the image by (dx, dy) frame pixels. */
export function panBy(v: ZoomView, dx: number, dy: number, width: number, height: number): ZoomView {
  return clampView({ ...v, x: v.x + dx, y: v.y + dy }, width, height);
}

/** The view after a key press, or null when the key is not a zoom or pan key. */
export function viewForKey(v: ZoomView, key: string, width: number, height: number): ZoomView | null {
  switch (key) {
    case '+':
    case '=':
      return zoomAt(v, ZOOM_STEP, width / 2, height / 2, width, height);
    case '-':
      return zoomAt(v, 1 / ZOOM_STEP, width / 2, height / 2, width, height);
    case '0':
      return initialView;
    case 'ArrowLeft':
      return panBy(v, PAN_STEP, 0, width, height);
    case 'ArrowRight':
      return panBy(v, -PAN_STEP, 0, width, height);
    case 'ArrowUp':
      return panBy(v, 0, PAN_STEP, width, height);
    case 'ArrowDown':
      return panBy(v, 0, -PAN_STEP, width, height);
    default:
      return null;
  }
}
