/**
 * Crop-box geometry of the crop editor (user-app.md §4, §5, §9), as pure functions over displayed pixels:
 * initial box 70 % of the displayed image and centred, minimum 50×50, always inside the image, 8 resize
 * handles with a 20 px hit zone, and the conversion to natural image pixels for POST /jobs/rerun withCrop.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

export const INITIAL_FRACTION = 0.7;
export const MIN_SIZE = 50;
export const HANDLE_ZONE = 20;

const clampNum = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/** The minimum side actually possible in an image (an image smaller than 50 px caps it). */
const minSide = (min: number, extent: number) => Math.min(min, extent);

/** 70 % of the displayed image, centred. */
export function initialBox(bounds: Size, fraction = INITIAL_FRACTION): Box {
  const width = clampNum(bounds.width * fraction, minSide(MIN_SIZE, bounds.width), bounds.width);
  const height = clampNum(bounds.height * fraction, minSide(MIN_SIZE, bounds.height), bounds.height);
  return clampBox({ x: (bounds.width - width) / 2, y: (bounds.height - height) / 2, width, height }, bounds);
}

/** At least min×min (as far as the image allows), no larger than the image, and fully inside it. */
export function clampBox(box: Box, bounds: Size, min = MIN_SIZE): Box {
  const width = clampNum(box.width, minSide(min, bounds.width), bounds.width);
  const height = clampNum(box.height, minSide(min, bounds.height), bounds.height);
  return {
    x: clampNum(box.x, 0, bounds.width - width),
    y: clampNum(box.y, 0, bounds.height - height),
    width,
    height,
  };
}

/** Drags the whole box by (dx, dy); it stops at the image's edges and keeps its size. */
export function moveBox(box: Box, dx: number, dy: number, bounds: Size): Box {
  return clampBox({ ...box, x: box.x + dx, y: box.y + dy }, bounds);
}

/**
 * Moves the edges named by the handle by (dx, dy). The opposite edges stay put; an edge stops at the image
 * border and at `min` from the opposite edge.
 */
export function resizeBox(box: Box, handle: Handle, dx: number, dy: number, bounds: Size, min = MIN_SIZE): Box {
  const b = clampBox(box, bounds, min);
  let left = b.x;
  let top = b.y;
  let right = b.x + b.width;
  let bottom = b.y + b.height;
  const mw = minSide(min, bounds.width);
  const mh = minSide(min, bounds.height);
  if (handle.includes('w')) left = clampNum(left + dx, 0, right - mw);
  if (handle.includes('e')) right = clampNum(right + dx, left + mw, bounds.width);
  if (handle.includes('n')) top = clampNum(top + dy, 0, bottom - mh);
  if (handle.includes('s')) bottom = clampNum(bottom + dy, top + mh, bounds.height);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * What a pointer at (px, py) grabs: a handle when within half the handle zone of a corner or an edge
 * (corners win), 'move' inside the box, null outside.
 */
export function hitTest(box: Box, px: number, py: number, zone = HANDLE_ZONE): Handle | 'move' | null {
  const r = zone / 2;
  const left = box.x;
  const right = box.x + box.width;
  const top = box.y;
  const bottom = box.y + box.height;
  if (px < left - r || px > right + r || py < top - r || py > bottom + r) return null;
  const nearW = Math.abs(px - left) <= r;
  const nearE = Math.abs(px - right) <= r;
  const nearN = Math.abs(py - top) <= r;
  const nearS = Math.abs(py - bottom) <= r;
  const v = nearN ? 'n' : nearS ? 's' : '';
  const h = nearW ? 'w' : nearE ? 'e' : '';
  if (v || h) return (v + h) as Handle;
  return 'move';
}

/** Converts a box in displayed pixels to whole natural image pixels, inside the image. */
export function toNatural(box: Box, displayed: Size, natural: Size): Box {
  const sx = natural.width / displayed.width;
  const sy = natural.height / displayed.height;
  const x = clampNum(Math.round(box.x * sx), 0, natural.width - 1);
  const y = clampNum(Math.round(box.y * sy), 0, natural.height - 1);
  const right = clampNum(Math.round((box.x + box.width) * sx), x + 1, natural.width);
  const bottom = clampNum(Math.round((box.y + box.height) * sy), y + 1, natural.height);
  return { x, y, width: right - x, height: bottom - y };
}

/** The cursor for a handle (for the overlay). */
export function cursorFor(target: Handle | 'move' | null): string {
  if (!target) return 'default';
  if (target === 'move') return 'move';
  return `${target}-resize`;
}

/** Moves the box with the arrow keys (keyboard access): shift = resize from the south-east corner. */
export function nudge(box: Box, key: string, step: number, resize: boolean, bounds: Size): Box {
  const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[key];
  if (!d) return box;
  return resize ? resizeBox(box, 'se', d[0], d[1], bounds) : moveBox(box, d[0], d[1], bounds);
}
