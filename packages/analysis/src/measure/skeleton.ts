// Zhang–Suen thinning and centre-line length of 8-connected skeletons.

/** Zhang–Suen thinning of a binary mask (in place on a copy); returns the 1-px skeleton. */
export function skeletonize(mask: Uint8Array, w: number, h: number): Uint8Array {
  const s = new Uint8Array(mask.length);
  for (let i = 0; i < s.length; i++) s[i] = mask[i] ? 1 : 0;
  // clear the frame so neighbourhoods are always inside
  for (let x = 0; x < w; x++) {
    s[x] = 0;
    s[(h - 1) * w + x] = 0;
  }
  for (let y = 0; y < h; y++) {
    s[y * w] = 0;
    s[y * w + w - 1] = 0;
  }
  let active: number[] = [];
  for (let i = 0; i < s.length; i++) if (s[i]) active.push(i);
  const del: number[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (let pass = 0; pass < 2; pass++) {
      del.length = 0;
      for (const i of active) {
        if (!s[i]) continue;
        const p2 = s[i - w],
          p3 = s[i - w + 1],
          p4 = s[i + 1],
          p5 = s[i + w + 1],
          p6 = s[i + w],
          p7 = s[i + w - 1],
          p8 = s[i - 1],
          p9 = s[i - w - 1];
        const b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
        if (b < 2 || b > 6) continue;
        const a = +(!p2 && p3) + +(!p3 && p4) + +(!p4 && p5) + +(!p5 && p6) + +(!p6 && p7) + +(!p7 && p8) + +(!p8 && p9) + +(!p9 && p2);
        if (a !== 1) continue;
        if (pass === 0 ? p2 * p4 * p6 !== 0 || p4 * p6 * p8 !== 0 : p2 * p4 * p8 !== 0 || p2 * p6 * p8 !== 0) continue;
        del.push(i);
      }
      if (del.length) changed = true;
      for (const i of del) s[i] = 0;
    }
    active = active.filter((i) => s[i]);
  }
  // staircase removal: delete (sequentially) pixels that are 8-simple and not end points, so
  // 4-connected staircases become 8-connected 1-px curves
  const OFF = [
    [-1, -1],
    [0, -1],
    [1, -1],
    [1, 0],
    [1, 1],
    [0, 1],
    [-1, 1],
    [-1, 0],
  ];
  for (const i of active) {
    if (!s[i]) continue;
    const on: number[] = [];
    for (let k = 0; k < 8; k++) if (s[i + OFF[k][0] + OFF[k][1] * w]) on.push(k);
    if (on.length < 2 || on.length > 4) continue;
    // 8-components among the neighbours
    const parent = on.map((_, j) => j);
    const find = (j: number): number => (parent[j] === j ? j : (parent[j] = find(parent[j])));
    for (let p = 0; p < on.length; p++)
      for (let q = p + 1; q < on.length; q++) {
        const [ax, ay] = OFF[on[p]],
          [bx, by] = OFF[on[q]];
        if (Math.abs(ax - bx) <= 1 && Math.abs(ay - by) <= 1) parent[find(p)] = find(q);
      }
    let comps = 0;
    for (let j = 0; j < on.length; j++) if (find(j) === j) comps++;
    if (comps === 1) s[i] = 0;
  }
  return s;
}

// Kulpa (1977) weights: unbiased length of digitised straight lines of random orientation
// (plain 1/√2 link counting overestimates by ~5-8 %).
export const ORTHO = 0.948;
export const DIAG = 1.343;

/**
 * Length of skeleton pixels with label `lab` (or all when labels is null): orthogonal links count 0.948,
 * diagonal links 1.343 (Kulpa) unless the two pixels are also joined through a shared orthogonal neighbour
 * (that corner would otherwise be counted twice).
 */
export function skeletonLength(skel: Uint8Array, w: number, h: number): { total: number; perPixel: Float32Array } {
  const per = new Float32Array(skel.length);
  let total = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!skel[i]) continue;
      let l = 0;
      const right = x + 1 < w && skel[i + 1],
        down = y + 1 < h && skel[i + w];
      if (right) l += ORTHO;
      if (down) l += ORTHO;
      if (x + 1 < w && y + 1 < h && skel[i + w + 1] && !right && !down) l += DIAG;
      if (x > 0 && y + 1 < h && skel[i + w - 1] && !skel[i - 1] && !down) l += DIAG;
      per[i] = l;
      total += l;
    }
  return { total, perPixel: per };
}
