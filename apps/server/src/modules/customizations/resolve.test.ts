import { describe, expect, it } from 'vitest';
import { findCycle, inheritanceChain, inheritedSettings, mergeOrder, resolveSettings, sortParents, type GroupNode } from './resolve.ts';

const graph = (...nodes: Array<[string, Record<string, unknown>, Array<[string, number]>]>) =>
  new Map<string, GroupNode>(
    nodes.map(([id, settings, parents]) => [id, { id, settings, parents: parents.map(([parentId, priority]) => ({ parentId, priority })) }]),
  );

describe('sortParents', () => {
  it('orders by priority, 0 first, ties by id', () => {
    expect(
      sortParents([
        { parentId: 'b', priority: 1 },
        { parentId: 'c', priority: 0 },
        { parentId: 'a', priority: 1 },
      ]).map((p) => p.parentId),
    ).toEqual(['c', 'a', 'b']);
  });
});

describe('resolution', () => {
  const g = graph(
    ['base', { a: 1, nested: { x: 1, y: 1 }, list: [1, 2] }, []],
    ['p0', { a: 2, nested: { x: 2 } }, [['base', 0]]],
    ['p1', { a: 3, b: 3, nested: { z: 3 }, list: [9] }, []],
    [
      'child',
      { c: 4 },
      [
        ['p1', 1],
        ['p0', 0],
      ],
    ],
  );
  it('applies defaults, then parents from the last priority to priority 0, then the group itself', () => {
    expect(mergeOrder(g, 'child')).toEqual(['p1', 'base', 'p0', 'child']);
    expect(resolveSettings(g, 'child', { a: 0, d: 0, nested: { w: 0 } })).toEqual({
      a: 2,
      b: 3,
      c: 4,
      d: 0,
      nested: { w: 0, x: 2, y: 1, z: 3 },
      list: [1, 2],
    });
  });
  it('own settings win over every parent', () => {
    const h = graph(['p', { a: 1, o: { k: 1 } }, []], ['g', { a: 5, o: { k: 5 } }, [['p', 0]]]);
    expect(resolveSettings(h, 'g', { a: 0 })).toEqual({ a: 5, o: { k: 5 } });
  });
  it('swapping priorities swaps the winner', () => {
    const h = graph(
      ['x', { v: 'x' }, []],
      ['y', { v: 'y' }, []],
      [
        'g',
        {},
        [
          ['x', 0],
          ['y', 1],
        ],
      ],
    );
    expect(resolveSettings(h, 'g', {})).toEqual({ v: 'x' });
    h.get('g')!.parents = [
      { parentId: 'x', priority: 1 },
      { parentId: 'y', priority: 0 },
    ];
    expect(resolveSettings(h, 'g', {})).toEqual({ v: 'y' });
  });
  it('a group reached twice is applied once, at its strongest place', () => {
    // g: [p0 → base, p1]; p1 → base. base reached through p1 (weaker) and p0 (stronger).
    const h = graph(
      ['base', { v: 'base' }, []],
      ['p1', { v: 'p1' }, [['base', 0]]],
      ['p0', {}, [['base', 0]]],
      [
        'g',
        {},
        [
          ['p0', 0],
          ['p1', 1],
        ],
      ],
    );
    expect(mergeOrder(h, 'g')).toEqual(['p1', 'base', 'p0', 'g']);
    expect(resolveSettings(h, 'g', {})).toEqual({ v: 'base' });
    expect(inheritanceChain(h, 'g')).toEqual(['p0', 'base', 'p1']);
  });
  it('inherited settings exclude defaults and own settings', () => {
    expect(inheritedSettings(g, 'child')).toEqual({ a: 2, b: 3, nested: { x: 2, y: 1, z: 3 }, list: [1, 2] });
  });
  it('does not change its inputs', () => {
    const defaults = { nested: { w: 0 } };
    resolveSettings(g, 'child', defaults);
    expect(defaults).toEqual({ nested: { w: 0 } });
    expect(g.get('base')!.settings).toEqual({ a: 1, nested: { x: 1, y: 1 }, list: [1, 2] });
  });
  it('skips unknown parents and stops at cycles', () => {
    const h = graph(
      [
        'a',
        { v: 'a' },
        [
          ['b', 0],
          ['ghost', 1],
        ],
      ],
      ['b', { v: 'b' }, [['a', 0]]],
    );
    expect(mergeOrder(h, 'a')).toEqual(['b', 'a']);
    expect(resolveSettings(h, 'a', {})).toEqual({ v: 'a' });
  });
  it('a group without parents resolves to defaults ← own', () => {
    const h = graph(['g', { a: { b: 2 } }, []]);
    expect(resolveSettings(h, 'g', { a: { b: 1, c: 1 } })).toEqual({ a: { b: 2, c: 1 } });
    expect(inheritanceChain(h, 'g')).toEqual([]);
  });
});

describe('findCycle', () => {
  const g = graph(['a', {}, [['b', 0]]], ['b', {}, [['c', 0]]], ['c', {}, []], ['d', {}, []]);
  it('refuses the group as its own parent', () => {
    expect(findCycle(g, 'a', ['a'])).toBe('a');
  });
  it('refuses a parent that already inherits from the group, directly or further up', () => {
    expect(findCycle(g, 'c', ['d', 'a'])).toBe('a');
    expect(findCycle(g, 'b', ['a'])).toBe('a');
  });
  it('accepts parents that do not lead back', () => {
    expect(findCycle(g, 'a', ['c', 'd'])).toBeNull();
    expect(findCycle(g, 'd', ['a'])).toBeNull();
  });
  it("ignores the group's current parents (they are replaced)", () => {
    // a currently has parent b; making c the parent of a is fine, and b → c exists, but nothing reaches a.
    expect(findCycle(g, 'a', ['c'])).toBeNull();
  });
});
