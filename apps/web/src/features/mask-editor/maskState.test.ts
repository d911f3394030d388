import { describe, expect, it } from 'vitest';
import {
  applyAction,
  canRedo,
  canUndo,
  countLabel,
  createMask,
  floodFill,
  initHistory,
  labelsFromChannel,
  MAX_HISTORY,
  paintStroke,
  push,
  redo,
  resample,
  toLabelRgba,
  undo,
  type LabelMask,
} from './maskState';

const fromRows = (rows: string[]): LabelMask => {
  const m = createMask(rows[0].length, rows.length);
  rows.forEach((r, y) => [...r].forEach((c, x) => (m.data[y * m.width + x] = Number(c))));
  return m;
};
const toRows = (m: LabelMask) => Array.from({ length: m.height }, (_, y) => Array.from(m.data.slice(y * m.width, (y + 1) * m.width)).join(''));

describe('flood fill', () => {
  it('fills the 4-connected region and stops at other labels', () => {
    const m = fromRows(['00100', '00100', '11100', '00000']);
    expect(toRows(floodFill(m, 0, 0, 2))).toEqual(['22100', '22100', '11100', '00000']);
    expect(toRows(floodFill(m, 4, 3, 3))).toEqual(['00133', '00133', '11133', '33333']);
  });
  it('does not leak through diagonal gaps', () => {
    const m = fromRows(['010', '101', '010']);
    expect(toRows(floodFill(m, 1, 1, 2))).toEqual(['010', '121', '010']);
  });
  it('leaves the input untouched and ignores points outside', () => {
    const m = fromRows(['00', '00']);
    floodFill(m, 0, 0, 1);
    expect(toRows(m)).toEqual(['00', '00']);
    expect(toRows(floodFill(m, 5, 5, 1))).toEqual(['00', '00']);
  });
  it('handles a large mask without recursion', () => {
    const m = createMask(2048, 2048);
    expect(countLabel(floodFill(m, 10, 10, 1), 1)).toBe(2048 * 2048);
  });
});

describe('paint and erase', () => {
  it('paints a round brush along the stroke', () => {
    const m = paintStroke(
      createMask(20, 10),
      [
        [2.5, 5.5],
        [17.5, 5.5],
      ],
      1.5,
      3,
    );
    expect(m.data[5 * 20 + 10]).toBe(3);
    expect(m.data[0]).toBe(0);
    expect(countLabel(m, 3)).toBeGreaterThan(30);
  });
  it('erases to background', () => {
    const full = applyAction(createMask(10, 10), { type: 'fill', label: 1, x: 0, y: 0 });
    const erased = applyAction(full, { type: 'erase', radius: 2, points: [[5, 5]] });
    expect(erased.data[5 * 10 + 5]).toBe(0);
    expect(erased.data[0]).toBe(1);
  });
});

describe('history', () => {
  it('undoes and redoes actions', () => {
    let h = initHistory(createMask(4, 4));
    h = push(h, { type: 'fill', label: 1, x: 0, y: 0 });
    h = push(h, { type: 'paint', label: 2, radius: 0.5, points: [[0.5, 0.5]] });
    expect(h.present.data[0]).toBe(2);
    h = undo(h);
    expect(h.present.data[0]).toBe(1);
    expect(canRedo(h)).toBe(true);
    h = undo(h);
    expect(countLabel(h.present, 0)).toBe(16);
    expect(canUndo(h)).toBe(false);
    expect(undo(h)).toBe(h);
    h = redo(redo(h));
    expect(h.present.data[0]).toBe(2);
    expect(canRedo(h)).toBe(false);
  });
  it('a new action drops the redo list', () => {
    let h = initHistory(createMask(2, 2));
    h = push(h, { type: 'fill', label: 1, x: 0, y: 0 });
    h = undo(h);
    h = push(h, { type: 'fill', label: 2, x: 0, y: 0 });
    expect(canRedo(h)).toBe(false);
    expect(h.actions).toHaveLength(1);
    expect(h.present.data[0]).toBe(2);
  });
  it('folds old actions into the base beyond the history depth', () => {
    let h = initHistory(createMask(3, 1));
    for (let i = 0; i < MAX_HISTORY + 5; i++) h = push(h, { type: 'fill', label: (i % 2) + 1, x: 0, y: 0 });
    expect(h.actions).toHaveLength(MAX_HISTORY);
    for (let i = 0; i < MAX_HISTORY; i++) h = undo(h);
    expect(canUndo(h)).toBe(false);
    expect(h.present.data[0]).toBe((4 % 2) + 1);
  });
});

describe('import and export', () => {
  it('keeps label images and thresholds black/white masks', () => {
    expect(Array.from(labelsFromChannel(Uint8Array.from([0, 1, 2, 3])))).toEqual([0, 1, 2, 3]);
    expect(Array.from(labelsFromChannel(Uint8Array.from([0, 255, 127, 200])))).toEqual([0, 1, 0, 1]);
  });
  it('resamples with nearest neighbour and writes the label as grey value', () => {
    const m = fromRows(['12', '30']);
    expect(toRows(resample(m, 4, 4))).toEqual(['1122', '1122', '3300', '3300']);
    expect(Array.from(toLabelRgba(m).slice(0, 8))).toEqual([1, 1, 1, 255, 2, 2, 2, 255]);
  });
});
