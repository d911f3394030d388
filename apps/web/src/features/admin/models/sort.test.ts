import { describe, expect, it } from 'vitest';
import { mergeStats, type ComputeModel } from './api';
import { sortModels } from './sort';

const m = (id: string, displayName: string, total: number | null): ComputeModel => ({
  id,
  internalName: id,
  routingPath: '/' + id,
  storagePath: id,
  displayName,
  version: '1',
  accessType: 'PUBLIC',
  isDefaultVisible: true,
  stats: total === null ? null : { totalCount: total },
});

describe('models table', () => {
  it('sorts by name and by numbers with empty values last', () => {
    const list = [m('a', 'beta', 3), m('b', 'Alpha', null), m('c', 'gamma', 10)];
    expect(sortModels(list, 'name', 'asc').map((x) => x.id)).toEqual(['b', 'a', 'c']);
    expect(sortModels(list, 'total', 'desc').map((x) => x.id)).toEqual(['c', 'a', 'b']);
    expect(sortModels(list, 'total', 'asc').map((x) => x.id)).toEqual(['a', 'c', 'b']);
  });
  it('merges stats from the stats call', () => {
    const merged = mergeStats([m('a', 'A', null)], [{ modelId: 'a', lastWeekCount: 2, totalCount: 5 }]);
    expect(merged[0].stats?.totalCount).toBe(5);
    expect(mergeStats([m('a', 'A', null)], { a: { totalCount: 7 } })[0].stats?.totalCount).toBe(7);
  });
});
