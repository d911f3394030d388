import { describe, expect, it } from 'vitest';
import { deleteAt, mergeAt, recount, splitAlong, type LabelMask } from './ops';

/** Two 8 × 8 grains side by side, 2 px apart, in a 20 × 12 field (the right one touches the edge). */
function twoGrains(): LabelMask {
  const w = 20,
    h = 12;
  const data = new Uint8Array(w * h);
  for (let y = 2; y < 10; y++) {
    for (let x = 1; x < 9; x++) data[y * w + x] = 1;
    for (let x = 11; x < 20; x++) data[y * w + x] = 1;
  }
  return { width: w, height: h, data };
}

describe('correction tools (issue 24 item 3)', () => {
  it('recounts objects as E112 Jeffries: inside 1, on the border ½', () => {
    expect(recount(twoGrains())).toEqual({ objects: 2, inside: 1, border: 1, jeffries: 1.5 });
  });

  it('merges two grains clicked one after the other into one, and refuses the same grain twice', () => {
    const m = twoGrains();
    const merged = mergeAt(m, [4, 5], [14, 5])!;
    expect(recount(merged).objects).toBe(1);
    expect(mergeAt(m, [4, 5], [5, 6])).toBeNull();
    expect(mergeAt(m, [0, 0], [14, 5])).toBeNull();
    expect(recount(m).objects).toBe(2); // the input is unchanged
  });

  it('splits a grain along a drawn line and deletes an object', () => {
    const m = twoGrains();
    const split = splitAlong(m, [5, 0], [5, 11]);
    expect(recount(split).objects).toBe(3);
    const gone = deleteAt(m, [3, 3])!;
    expect(recount(gone)).toEqual({ objects: 1, inside: 0, border: 1, jeffries: 0.5 });
    expect(deleteAt(m, [10, 5])).toBeNull(); // the gap is no object
  });
});
