import { describe, expect, it } from 'vitest';
import { groupValidationErrors, parentCandidates, parentsBody, parseJson, pathSegments, reorderParents, sortByPriority } from './logic';

const labels = { general: 'General error', item: (n: number) => `Item ${n}` };

describe('validation errors grouped by path', () => {
  it('joins segments, shows numeric segments as Item N and no path as General error', () => {
    const groups = groupValidationErrors(
      [
        { instancePath: '/segmentation/maxPoints', message: 'must be integer' },
        { instancePath: '', message: 'must have required property magnification' },
        { instancePath: '/colors/0/r', message: 'must be <= 1' },
        { instancePath: '/segmentation/maxPoints', message: 'must be >= 1' },
        { instancePath: '/segmentation/maxPoints', message: 'must be integer' },
      ],
      labels,
    );
    expect(groups).toEqual([
      { label: 'segmentation › maxPoints', path: 'segmentation/maxPoints', messages: ['must be integer', 'must be >= 1'] },
      { label: 'General error', path: '', messages: ['must have required property magnification'] },
      { label: 'colors › Item 1 › r', path: 'colors/0/r', messages: ['must be <= 1'] },
    ]);
  });
  it('handles null, missing paths and escaped pointers', () => {
    expect(groupValidationErrors(null, labels)).toEqual([]);
    expect(groupValidationErrors([{ message: 'x' }], labels)[0].label).toBe('General error');
    expect(pathSegments('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(groupValidationErrors([{ instancePath: '/a', message: 'm' }], { ...labels, separator: '.' })[0].label).toBe('a');
  });
});

describe('parent priorities', () => {
  const parents = [
    { parentId: 'c', priority: 2 },
    { parentId: 'a', priority: 0 },
    { parentId: 'b', priority: 1 },
  ];
  it('orders by priority, 0 first', () => {
    expect(sortByPriority(parents).map((p) => p.parentId)).toEqual(['a', 'b', 'c']);
  });
  it('moves a parent and renumbers', () => {
    expect(reorderParents(parents, 2, 0)).toEqual([
      { parentId: 'c', priority: 0 },
      { parentId: 'a', priority: 1 },
      { parentId: 'b', priority: 2 },
    ]);
    expect(reorderParents(parents, 0, 1).map((p) => p.parentId)).toEqual(['b', 'a', 'c']);
    expect(reorderParents(parents, 0, 9).map((p) => p.priority)).toEqual([0, 1, 2]);
  });
  it('sends every parent with its new priority', () => {
    expect(
      parentsBody([
        { parentId: 'x', priority: 5 },
        { parentId: 'y', priority: 1 },
      ]),
    ).toEqual({
      parents: [
        { parentId: 'y', priority: 0 },
        { parentId: 'x', priority: 1 },
      ],
    });
  });
  it('hides the group itself and chosen parents, optionally other models', () => {
    const g = (id: string, model: string) => ({ id, model: { id: model } });
    const all = [g('self', 'm1'), g('p', 'm1'), g('q', 'm1'), g('r', 'm2')];
    expect(parentCandidates(all, all[0], ['p'], false).map((x) => x.id)).toEqual(['q', 'r']);
    expect(parentCandidates(all, all[0], ['p'], true).map((x) => x.id)).toEqual(['q']);
  });
});

describe('settings JSON', () => {
  it('parses or reports invalid', () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJson('{a:1}')).toEqual({ ok: false });
  });
});
