/** Client-side sort of the models table (back-office.md §2: "Sorting happens in the client"). */
import type { ComputeModel } from '@lamella/contracts';

export const MODEL_COLUMNS = [
  'name',
  'version',
  'accessType',
  'lastWeek',
  'lastMonth',
  'total',
  'averageJobTime',
  'averageWaitTime',
  'trainable',
] as const;
export type ModelColumn = (typeof MODEL_COLUMNS)[number];

export function columnValue(m: ComputeModel, c: ModelColumn): string | number | null {
  switch (c) {
    case 'name':
      return m.displayName || m.internalName;
    case 'version':
      return m.version;
    case 'accessType':
      return m.accessType;
    case 'lastWeek':
      return m.stats?.lastWeekCount ?? null;
    case 'lastMonth':
      return m.stats?.lastMonthCount ?? null;
    case 'total':
      return m.stats?.totalCount ?? null;
    case 'averageJobTime':
      return m.stats?.averageJobTime ?? null;
    case 'averageWaitTime':
      return m.stats?.averageWaitTime ?? null;
    case 'trainable':
      return m.trainable?.count ?? null;
  }
}

/** Nulls last in both directions; strings compared case-insensitively, numbers numerically. */
export function sortModels(models: ComputeModel[], col: ModelColumn, order: 'asc' | 'desc'): ComputeModel[] {
  const dir = order === 'asc' ? 1 : -1;
  return [...models].sort((a, b) => {
    const x = columnValue(a, col);
    const y = columnValue(b, col);
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return String(x).localeCompare(String(y), undefined, { sensitivity: 'base', numeric: true }) * dir;
  });
}
