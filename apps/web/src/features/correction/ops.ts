/**
 * The user's correction of a job's segmentation (issue 24 item 3) as pure functions on a mask (1 = object, 0 = none,
 * the model's segmentation.png: grains kept 1-2 px apart): merge two grains, split one along a line, delete an
 * object, paint or erase (the other models' features), and the live recount E112's Jeffries count makes of it.
 * Every function returns a new mask and leaves its input unchanged.
 */
import { floodFill, paintStroke, type LabelMask, type Point } from '../mask-editor/maskState';

export type { LabelMask, Point };

/** 4-connected objects: each pixel's object number (0: none) and how many there are. */
export function objectsOf(mask: LabelMask): { labels: Int32Array; count: number } {
  const { width: w, height: h, data } = mask;
  const labels = new Int32Array(w * h);
  const stack: number[] = [];
  let count = 0;
  for (let s = 0; s < data.length; s++) {
    if (!data[s] || labels[s]) continue;
    labels[s] = ++count;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const visit = (j: number) => {
        if (data[j] && !labels[j]) {
          labels[j] = count;
          stack.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x + 1 < w) visit(i + 1);
      if (i >= w) visit(i - w);
      if (i + w < w * h) visit(i + w);
    }
  }
  return { labels, count };
}

export interface Recount {
  objects: number;
  inside: number;
  border: number;
  /** E112 Jeffries: inside + ½ border. */
  jeffries: number;
}

/** The live recount: objects, those inside the field and those touching its edge (counted ½). */
export function recount(mask: LabelMask): Recount {
  const { labels, count } = objectsOf(mask);
  const { width: w, height: h } = mask;
  const onBorder = new Uint8Array(count + 1);
  for (let x = 0; x < w; x++) {
    onBorder[labels[x]] = 1;
    onBorder[labels[(h - 1) * w + x]] = 1;
  }
  for (let y = 0; y < h; y++) {
    onBorder[labels[y * w]] = 1;
    onBorder[labels[y * w + w - 1]] = 1;
  }
  let border = 0;
  for (let l = 1; l <= count; l++) border += onBorder[l];
  return { objects: count, inside: count - border, border, jeffries: count - border + border / 2 };
}

const at = (mask: LabelMask, [x, y]: Point) => {
  const xi = Math.floor(x),
    yi = Math.floor(y);
  return xi >= 0 && yi >= 0 && xi < mask.width && yi < mask.height ? yi * mask.width + xi : -1;
};

/** Deletes the object under the point (nothing when the point is on no object). */
export function deleteAt(mask: LabelMask, p: Point): LabelMask | null {
  const i = at(mask, p);
  if (i < 0 || !mask.data[i]) return null;
  return floodFill(mask, p[0], p[1], 0);
}

/** How far (px) the gap between two grains is bridged when they are merged. */
export const MERGE_REACH = 3;

/**
 * Merges the two objects under the points: the gap pixels that have both objects within MERGE_REACH px become
 * object, so the two are one. Null when a point is on no object or both are on the same one.
 */
export function mergeAt(mask: LabelMask, a: Point, b: Point): LabelMask | null {
  const { labels } = objectsOf(mask);
  const ia = at(mask, a),
    ib = at(mask, b);
  if (ia < 0 || ib < 0) return null;
  const la = labels[ia],
    lb = labels[ib];
  if (!la || !lb || la === lb) return null;
  const { width: w, height: h } = mask;
  let x0 = w,
    y0 = h,
    x1 = 0,
    y1 = 0;
  for (let i = 0; i < labels.length; i++)
    if (labels[i] === la || labels[i] === lb) {
      const x = i % w,
        y = (i / w) | 0;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  const out = { width: w, height: h, data: Uint8Array.from(mask.data) };
  const r = MERGE_REACH;
  let bridged = 0;
  for (let y = Math.max(0, y0 - r); y <= Math.min(h - 1, y1 + r); y++)
    for (let x = Math.max(0, x0 - r); x <= Math.min(w - 1, x1 + r); x++) {
      const i = y * w + x;
      if (mask.data[i]) continue;
      let hasA = false,
        hasB = false;
      for (let dy = -r; dy <= r && !(hasA && hasB); dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -r; dx <= r; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const l = labels[yy * w + xx];
          if (l === la) hasA = true;
          else if (l === lb) hasB = true;
        }
      }
      if (hasA && hasB) {
        out.data[i] = 1;
        bridged++;
      }
    }
  return bridged ? out : null;
}

/** Splits along the line from a to b: the pixels within 1 px of it become gap (a 3-px cut). */
export function splitAlong(mask: LabelMask, a: Point, b: Point): LabelMask {
  return paintStroke(mask, [a, b], 1, 0);
}

/** Paints (1) or erases (0) along a stroke with a round brush. */
export function brush(mask: LabelMask, points: Point[], radius: number, value: 0 | 1): LabelMask {
  return paintStroke(mask, points, radius, value);
}

/** The mask as the editor and the server read it: 1 where an object is. */
export const binary = (labels: Uint8Array): Uint8Array => labels.map((v) => (v ? 1 : 0));
