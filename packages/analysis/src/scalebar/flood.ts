// Bounded flood fill shared by the scale-bar searches (the plate of the classic search, the box or plate of the
// general one): 4-connected pixels that pass `inside`, from a seed, within a window of the image.

export interface Window {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface FloodBox {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  /** The fill reached the window's edge where the image goes on: the region is larger than the window. */
  touches: boolean;
}

/** Bounding box of the 4-connected region of `inside` pixels around (sx, sy), kept inside `win`. */
export function floodBox(
  data: ArrayLike<number>,
  w: number,
  h: number,
  win: Window,
  sx: number,
  sy: number,
  inside: (v: number) => boolean,
): FloodBox {
  const ww = win.x1 - win.x0 + 1;
  const seen = new Uint8Array(ww * (win.y1 - win.y0 + 1));
  const stack = [sx, sy];
  seen[(sy - win.y0) * ww + (sx - win.x0)] = 1;
  const box: FloodBox = { minX: sx, maxX: sx, minY: sy, maxY: sy, touches: false };
  while (stack.length) {
    const y = stack.pop()!,
      x = stack.pop()!;
    if (x < box.minX) box.minX = x;
    if (x > box.maxX) box.maxX = x;
    if (y < box.minY) box.minY = y;
    if (y > box.maxY) box.maxY = y;
    if ((x === win.x0 && x > 0) || (x === win.x1 && x < w - 1) || (y === win.y0 && y > 0) || (y === win.y1 && y < h - 1)) box.touches = true;
    for (let d = 0; d < 4; d++) {
      const nx = x + (d === 0 ? 1 : d === 1 ? -1 : 0),
        ny = y + (d === 2 ? 1 : d === 3 ? -1 : 0);
      if (nx < win.x0 || nx > win.x1 || ny < win.y0 || ny > win.y1) continue;
      const k = (ny - win.y0) * ww + (nx - win.x0);
      if (seen[k] || !inside(data[ny * w + nx])) continue;
      seen[k] = 1;
      stack.push(nx, ny);
    }
  }
  return box;
}
