// Test-time orientations (grain size 20261208 on): the network's answer averaged over symmetries of the pixel grid
// (the dihedral group of the square: quarter turns and mirrors). A convolutional network is not rotation- or
// mirror-equivariant: a faint line it is unsure of may be drawn in one orientation of an image and not in another.
// Averaged over a group of orientations, the answer for a rotated or mirrored image is the rotated or mirrored
// answer (all eight: every quarter turn and mirror; the quarter turns: every rotation), tiles and edges apart.
import type * as ort from 'onnxruntime-node';
import { normalisation, runTiled } from './network.js';
import { ORIENTATIONS } from './tunables.js';

/**
 * Orientation t (0..7) of a w×h image: bit 2 swaps the axes (applied first), then bit 0 mirrors x and bit 1 mirrors
 * y. 3 is the half turn, 5 and 6 the quarter turns.
 */
export type Orientation = number;

/** The groups used: all eight symmetries, the quarter turns, the half turn, none. */
export const GROUPS: ReadonlyArray<readonly Orientation[]> = [[0, 1, 2, 3, 4, 5, 6, 7], [0, 3, 5, 6], [0, 3], [0]];

/** The largest group whose network pixels (`pixels` per orientation) fit ORIENTATIONS.budgetPixels. */
export function orientationsFor(pixels: number, budget: number = ORIENTATIONS.budgetPixels): readonly Orientation[] {
  return GROUPS.find((g) => g.length * pixels <= budget) ?? [0];
}

/**
 * For each pixel of a w×h image in orientation t (its size W×H), the index of the image pixel it shows. The same
 * map takes a plane computed in that orientation back: plane value k belongs to image pixel src[k].
 */
export function sourceIndex(t: Orientation, w: number, h: number): { W: number; H: number; src: Int32Array } {
  const swap = (t & 4) !== 0;
  const W = swap ? h : w,
    H = swap ? w : h;
  const src = new Int32Array(W * H);
  for (let Y = 0, k = 0; Y < H; Y++)
    for (let X = 0; X < W; X++, k++) {
      const X1 = t & 1 ? W - 1 - X : X,
        Y1 = t & 2 ? H - 1 - Y : Y;
      src[k] = swap ? X1 * w + Y1 : Y1 * w + X1;
    }
  return { W, H, src };
}

/**
 * runTiled averaged over `group`: each orientation of the RGB image (interleaved, w×h) and its mask is run, its
 * planes are taken back to the image's frame and summed, and the sums divided by the group's size.
 */
export async function runOriented(
  session: ort.InferenceSession,
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array,
  tile: number,
  overlap: number,
  balanced: boolean,
  group: readonly Orientation[],
): Promise<Float32Array[]> {
  if (group.length === 1 && group[0] === 0) return runTiled(session, rgb, w, h, valid, tile, overlap, balanced);
  // the channels' statistics do not depend on the orientation: computed once, not once per orientation
  const norm = normalisation(session.inputNames[0], rgb, valid);
  let sums: Float32Array[] = [];
  for (const t of group) {
    const { W, H, src } = sourceIndex(t, w, h);
    const data = new Uint8Array(3 * W * H),
      v = new Uint8Array(W * H);
    for (let k = 0; k < src.length; k++) {
      const s = src[k];
      data[3 * k] = rgb[3 * s];
      data[3 * k + 1] = rgb[3 * s + 1];
      data[3 * k + 2] = rgb[3 * s + 2];
      v[k] = valid[s];
    }
    const planes = await runTiled(session, data, W, H, v, tile, overlap, balanced, norm);
    if (!sums.length) sums = planes.map(() => new Float32Array(w * h));
    planes.forEach((p, c) => {
      const acc = sums[c];
      for (let k = 0; k < src.length; k++) acc[src[k]] += p[k];
    });
  }
  for (const acc of sums) for (let i = 0; i < acc.length; i++) acc[i] /= group.length;
  return sums;
}
