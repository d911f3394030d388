import { describe, expect, it } from 'vitest';
import type { ComputeModel } from '@lamella/contracts';
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
  name: id,
  builtIn: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...(total === null ? {} : { stats: { lastWeekCount: 0, lastMonthCount: 0, totalCount: total, averageJobTime: null, averageWaitTime: null } }),
});

describe('models table', () => {
  it('sorts by name and by numbers with empty values last', () => {
    const list = [m('a', 'beta', 3), m('b', 'Alpha', null), m('c', 'gamma', 10)];
    expect(sortModels(list, 'name', 'asc').map((x) => x.id)).toEqual(['b', 'a', 'c']);
    expect(sortModels(list, 'total', 'desc').map((x) => x.id)).toEqual(['c', 'a', 'b']);
    expect(sortModels(list, 'total', 'asc').map((x) => x.id)).toEqual(['a', 'c', 'b']);
  });
});
