import type { SortBy, SortOrder } from '../jobs/types';

export const PAGE_SIZE_KEY = 'results-page-size';

export const PAGE_SIZES = ['10', '20', '50', '100'];

export const LOAD_MORE_THROTTLE_MS = 500;

export const SORTS: { value: string; sortBy: SortBy; sortOrder: SortOrder }[] = [
  { value: 'createdAt.desc', sortBy: 'createdAt', sortOrder: 'desc' },
  { value: 'createdAt.asc', sortBy: 'createdAt', sortOrder: 'asc' },
  { value: 'finishedAt.desc', sortBy: 'finishedAt', sortOrder: 'desc' },
  { value: 'status.asc', sortBy: 'status', sortOrder: 'asc' },
];
