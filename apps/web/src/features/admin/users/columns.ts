/** The users table columns (back-office.md §3 "Customer/user list item"), which ones show, and the CSV columns they map to. */
import { USER_CSV_COLUMNS, type AdminUsersQuery, type UserSortKey } from '@lamella/contracts';

export const USER_COLUMNS = [
  'fullName',
  'company',
  'email',
  'phone',
  'role',
  'trainingConsent',
  'license',
  'timeJoined',
  'lastLogin',
  'nps',
  'tags',
  'uploaded',
] as const;
export type UserColumn = (typeof USER_COLUMNS)[number];

export const DEFAULT_COLUMNS: UserColumn[] = ['fullName', 'company', 'email', 'role', 'license', 'timeJoined', 'lastLogin', 'uploaded'];
export const SORTABLE: Partial<Record<UserColumn, UserSortKey>> = {
  fullName: 'fullName',
  email: 'email',
  company: 'company',
  role: 'role',
  timeJoined: 'timeJoined',
  lastLogin: 'lastLogin',
};

const STORAGE_KEY = 'lamella.admin.users.columns';

export function loadColumns(): UserColumn[] {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as unknown;
    if (Array.isArray(saved)) {
      const cols = USER_COLUMNS.filter((c) => saved.includes(c));
      if (cols.length) return cols;
    }
  } catch {
    // unreadable: defaults
  }
  return DEFAULT_COLUMNS;
}

export function saveColumns(cols: UserColumn[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(cols));
  } catch {
    // storage full or disabled: the choice lasts for this page only
  }
}

/** The CSV columns for the shown table columns (id always first). */
export function csvColumns(cols: UserColumn[]): string[] {
  return ['id', ...USER_CSV_COLUMNS.filter((c) => (cols as readonly string[]).includes(c))];
}

/** Sort, search and page from the query string. */
export function queryOf(params: URLSearchParams): AdminUsersQuery {
  const sortKey = params.get('sortKey') as UserSortKey | null;
  const sortOrder = params.get('sortOrder');
  const filter = params.get('filter') ?? '';
  const page = Number(params.get('page'));
  return {
    ...(sortKey && Object.values(SORTABLE).includes(sortKey) ? { sortKey } : {}),
    ...(sortOrder === 'asc' || sortOrder === 'desc' ? { sortOrder } : {}),
    ...(filter ? { filter } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  };
}

/** A new key sorts descending; the same key flips the order. */
export function nextSort(q: AdminUsersQuery, key: UserSortKey): Pick<AdminUsersQuery, 'sortKey' | 'sortOrder'> {
  if (q.sortKey === key) return { sortKey: key, sortOrder: q.sortOrder === 'asc' ? 'desc' : 'asc' };
  return { sortKey: key, sortOrder: 'desc' };
}
