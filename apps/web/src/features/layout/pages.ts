/** Non-model pages of the signed-in app and the translation key of their title (used for the "current page" tab). */
export const PAGE_TITLES: { prefix: string; key: string }[] = [
  { prefix: '/profile', key: 'layout.pages.profile' },
  { prefix: '/access-keys', key: 'layout.pages.accessKeys' },
  { prefix: '/history', key: 'layout.pages.history' },
  { prefix: '/sandbox/admin', key: 'layout.pages.adminSandbox' },
  { prefix: '/sandbox', key: 'layout.pages.sandbox' },
  { prefix: '/projects', key: 'layout.pages.projects' },
  { prefix: '/library', key: 'library.title' },
  { prefix: '/group-admin', key: 'layout.pages.groupAdmin' },
  { prefix: '/admin', key: 'layout.pages.admin' },
];

export function pageTitleKey(pathname: string): string | null {
  return PAGE_TITLES.find((p) => pathname === p.prefix || pathname.startsWith(p.prefix + '/'))?.key ?? null;
}
