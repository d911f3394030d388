/** The back-office side menu (back-office.md §2) and who sees which entry (§6). */
import type { Me } from '@lamella/contracts';

export interface AdminMenuEntry {
  /** Translation key under admin.menu. */
  key: string;
  path: string;
  /** Permission a POWER_USER needs; entries without one are ADMIN only. */
  permission?: string;
}

export const ADMIN_MENU: AdminMenuEntry[] = [
  { key: 'dashboard', path: '/admin' },
  { key: 'users', path: '/admin/users', permission: 'USER.READ' },
  { key: 'usersPrivileges', path: '/admin/users-privileges' },
  { key: 'groups', path: '/admin/groups' },
  { key: 'vouchers', path: '/admin/vouchers' },
  { key: 'resources', path: '/admin/resources' },
  { key: 'models', path: '/admin/compute-compute-models-registry' },
  { key: 'training', path: '/admin/training' },
  { key: 'customizations', path: '/admin/customizations' },
  { key: 'modelParams', path: '/admin/model-params' },
  { key: 'projectSettingsTemplates', path: '/admin/project-settings-templates' },
  { key: 'news', path: '/admin/news' },
  { key: 'insights', path: '/admin/insights' },
  { key: 'terms', path: '/admin/terms' },
  { key: 'images', path: '/admin/images' },
  { key: 'jobs', path: '/admin/jobs', permission: 'JOB.READ' },
  { key: 'settings', path: '/admin/settings' },
  { key: 'auditLog', path: '/admin/audit-log' },
];

type Who = Pick<Me, 'role' | 'permissions'> | null | undefined;

/** ADMIN: every entry. POWER_USER: only entries whose permission they hold. Anyone else: none. */
export function visibleMenu(me: Who, entries: AdminMenuEntry[] = ADMIN_MENU): AdminMenuEntry[] {
  if (!me) return [];
  if (me.role === 'ADMIN') return entries;
  if (me.role !== 'POWER_USER') return [];
  const held = new Set(me.permissions ?? []);
  return entries.filter((e) => e.permission !== undefined && held.has(e.permission));
}

/** The menu entry a path belongs to (longest prefix; /admin only matches itself). */
export function activeEntry(pathname: string, entries: AdminMenuEntry[] = ADMIN_MENU): AdminMenuEntry | undefined {
  const p = pathname.replace(/\/+$/, '') || '/';
  let best: AdminMenuEntry | undefined;
  for (const e of entries) {
    const match = e.path === '/admin' ? p === '/admin' : p === e.path || p.startsWith(e.path + '/');
    if (match && (!best || e.path.length > best.path.length)) best = e;
  }
  return best;
}

/** May this user open this admin path? (the same rule as the menu; sub-pages inherit their entry's rule) */
export function canOpenAdminPath(me: Who, pathname: string): boolean {
  const entry = activeEntry(pathname);
  if (!entry) return me?.role === 'ADMIN';
  return visibleMenu(me, [entry]).length === 1;
}
