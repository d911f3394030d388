/**
 * The mask editor's model as pure functions: a label mask (one byte per pixel, 0 = background, 1..n = labels)
 * and editor commands that return a new mask, never changing their input. Undo and redo walk a history of
 * those commands (base mask + actions + cursor), so every state can be rebuilt by replaying them.
 */

export interface LabelMask {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Point = [number, number];

export type MaskAction =
  | { type: 'paint'; label: number; radius: number; points: Point[] }
  | { type: 'erase'; radius: number; points: Point[] }
  | { type: 'fill'; label: number; x: number; y: number }
  | { type: 'import'; data: Uint8Array }
  | { type: 'clear' };

export const MAX_LABELS = 8;
/** Label colours (index = label value; 0 is transparent). */
export const LABEL_COLORS: [number, number, number][] = [
  [0, 0, 0],
  [230, 57, 70],
  [42, 157, 143],
  [69, 123, 230],
  [244, 162, 97],
  [155, 93, 229],
  [255, 209, 102],
  [6, 214, 160],
  [239, 71, 111],
];

export function createMask(width: number, height: number): LabelMask {
  return { width, height, data: new Uint8Array(width * height) };
}

const copy = (m: LabelMask): LabelMask => ({ width: m.width, height: m.height, data: new Uint8Array(m.data) });

function stampDisc(m: LabelMask, cx: number, cy: number, radius: number, label: number): void {
  const r = Math.max(0.5, radius);
  const x0 = Math.max(0, Math.floor(cx - r));
  const x1 = Math.min(m.width - 1, Math.ceil(cx + r));
  const y0 = Math.max(0, Math.floor(cy - r));
  const y1 = Math.min(m.height - 1, Math.ceil(cy + r));
  const r2 = r * r;
  for (let y = y0; y <= y1; y++) {
    const dy = y + 0.5 - cy;
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - cx;
      if (dx * dx + dy * dy <= r2) m.data[y * m.width + x] = label;
    }
  }
}

/** Paints round brush stamps along the polyline (label 0 erases). */
export function paintStroke(mask: LabelMask, points: Point[], radius: number, label: number): LabelMask {
  const m = copy(mask);
  if (!points.length) return m;
  stampDisc(m, points[0][0], points[0][1], radius, label);
  const step = Math.max(0.5, radius / 2);
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1];
    const [bx, by] = points[i];
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / step));
    for (let k = 1; k <= n; k++) stampDisc(m, ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n, radius, label);
  }
  return m;
}

/** Flood fill (4-connected): the region of (x, y)'s label that touches (x, y) becomes `label`. */
export function floodFill(mask: LabelMask, x: number, y: number, label: number): LabelMask {
  const { width: w, height: h } = mask;
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  if (xi < 0 || yi < 0 || xi >= w || yi >= h) return copy(mask);
  const target = mask.data[yi * w + xi];
  if (target === label) return copy(mask);
  const m = copy(mask);
  const d = m.data;
  // Scanline fill with an explicit stack (no recursion: 4-megapixel masks).
  const stack: number[] = [xi, yi];
  while (stack.length) {
    const sy = stack.pop()!;
    let sx = stack.pop()!;
    while (sx > 0 && d[sy * w + sx - 1] === target) sx--;
    let upOpen = false;
    let downOpen = false;
    for (let cx = sx; cx < w && d[sy * w + cx] === target; cx++) {
      d[sy * w + cx] = label;
      if (sy > 0) {
        const up = d[(sy - 1) * w + cx] === target;
        if (up && !upOpen) stack.push(cx, sy - 1);
        upOpen = up;
      }
      if (sy < h - 1) {
        const down = d[(sy + 1) * w + cx] === target;
        if (down && !downOpen) stack.push(cx, sy + 1);
        downOpen = down;
      }
    }
  }
  return m;
}

/**
 * Label values from an imported image's first channel: a label image (every value ≤ maxLabel) is taken as is;
 * anything else (a black/white or JPEG mask) is thresholded at half intensity into label 1.
 */
export function labelsFromChannel(channel: Uint8Array | Uint8ClampedArray, maxLabel = MAX_LABELS): Uint8Array {
  let max = 0;
  for (let i = 0; i < channel.length; i++) if (channel[i] > max) max = channel[i];
  const out = new Uint8Array(channel.length);
  if (max <= maxLabel) out.set(channel);
  else for (let i = 0; i < channel.length; i++) out[i] = channel[i] >= 128 ? 1 : 0;
  return out;
}

export function applyAction(mask: LabelMask, action: MaskAction): LabelMask {
  switch (action.type) {
    case 'paint':
      return paintStroke(mask, action.points, action.radius, action.label);
    case 'erase':
      return paintStroke(mask, action.points, action.radius, 0);
    case 'fill':
      return floodFill(mask, action.x, action.y, action.label);
    case 'import':
      if (action.data.length !== mask.data.length) throw new Error('mask size mismatch');
      return { width: mask.width, height: mask.height, data: new Uint8Array(action.data) };
    case 'clear':
      return createMask(mask.width, mask.height);
  }
}

export interface History {
  base: LabelMask;
  actions: MaskAction[];
  /** Number of actions applied (actions after it are the redo list). */
  cursor: number;
  present: LabelMask;
}

/** Older actions are folded into the base beyond this depth. */
export const MAX_HISTORY = 50;

export function initHistory(base: LabelMask): History {
  return { base, actions: [], cursor: 0, present: base };
}

export function push(h: History, action: MaskAction): History {
  const present = applyAction(h.present, action);
  let actions = [...h.actions.slice(0, h.cursor), action];
  let base = h.base;
  if (actions.length > MAX_HISTORY) {
    base = applyAction(base, actions[0]);
    actions = actions.slice(1);
  }
  return { base, actions, cursor: actions.length, present };
}

const replay = (base: LabelMask, actions: MaskAction[]) => actions.reduce(applyAction, base);

export const canUndo = (h: History) => h.cursor > 0;
export const canRedo = (h: History) => h.cursor < h.actions.length;

export function undo(h: History): History {
  if (!canUndo(h)) return h;
  const cursor = h.cursor - 1;
  return { ...h, cursor, present: replay(h.base, h.actions.slice(0, cursor)) };
}

export function redo(h: History): History {
  if (!canRedo(h)) return h;
  return { ...h, cursor: h.cursor + 1, present: applyAction(h.present, h.actions[h.cursor]) };
}

/** Nearest-neighbour resampling (working resolution → the image's natural size for saving). */
export function resample(mask: LabelMask, width: number, height: number): LabelMask {
  if (mask.width === width && mask.height === height) return copy(mask);
  const out = createMask(width, height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(mask.height - 1, Math.floor(((y + 0.5) * mask.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(mask.width - 1, Math.floor(((x + 0.5) * mask.width) / width));
      out.data[y * width + x] = mask.data[sy * mask.width + sx];
    }
  }
  return out;
}

/** RGBA pixels of the mask: grey value = label (the analysis reads the first channel), opaque. */
export function toLabelRgba(mask: LabelMask): Uint8ClampedArray {
  const out = new Uint8ClampedArray(mask.data.length * 4);
  for (let i = 0; i < mask.data.length; i++) {
    const v = mask.data[i];
    out[i * 4] = v;
    out[i * 4 + 1] = v;
    out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  }
  return out;
}

/** RGBA overlay for the screen: each label in its colour at `alpha`, background transparent. */
export function toOverlayRgba(mask: LabelMask, alpha = 140): Uint8ClampedArray {
  const out = new Uint8ClampedArray(mask.data.length * 4);
  for (let i = 0; i < mask.data.length; i++) {
    const v = mask.data[i];
    if (!v) continue;
    const c = LABEL_COLORS[v % LABEL_COLORS.length];
    out[i * 4] = c[0];
    out[i * 4 + 1] = c[1];
    out[i * 4 + 2] = c[2];
    out[i * 4 + 3] = alpha;
  }
  return out;
}

export const countLabel = (mask: LabelMask, label: number) => mask.data.reduce((n, v) => n + (v === label ? 1 : 0), 0);
