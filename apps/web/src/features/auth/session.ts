/** The signed-in user (GET /api/users/me) as a query, plus the landing rules of accounts.md §2. */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { SIGNED_IN_COOKIE, usersApi, type Me } from '@lamella/contracts';
import { call, isApiError } from '../../api/client';

export const ME_KEY = ['me'] as const;

/** Whether `cookies` (document.cookie) holds the session marker (SIGNED_IN_COOKIE: set and cleared by the server with the session). */
export function hasSessionMarker(cookies: string): boolean {
  return cookies.split(';').some((c) => c.trim().startsWith(SIGNED_IN_COOKIE + '='));
}

const documentCookies = () => (typeof document === 'undefined' ? '' : document.cookie);

/** null = no session: no marker (no call made), or a 401/403. A 401 drops the marker: the session has ended. */
export async function fetchMe(): Promise<Me | null> {
  if (!hasSessionMarker(documentCookies())) return null;
  try {
    return await call(usersApi.me);
  } catch (e) {
    if (isApiError(e) && e.statusCode === 401 && typeof document !== 'undefined') document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; path=/`;
    if (isApiError(e) && (e.statusCode === 401 || e.statusCode === 403)) return null;
    throw e;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 });
}

export function useSetMe() {
  const qc = useQueryClient();
  return (me: Me | null) => qc.setQueryData(ME_KEY, me);
}

/** Drops every cached query and marks the user signed out (after logout, account removal). */
export function clearSession(qc: QueryClient): void {
  qc.clear();
  qc.setQueryData(ME_KEY, null);
}

export const isAdmin = (me: Me | null | undefined) => me?.role === 'ADMIN';
export const hasPermission = (me: Me | null | undefined, permission: string) =>
  me?.role === 'ADMIN' || (me?.role === 'POWER_USER' && me.permissions.includes(permission));

/** Admin pages a power user can reach, in menu order: the first one is their landing page. */
const POWER_USER_PAGES: { permission: string; path: string }[] = [
  { permission: 'USER.READ', path: '/admin/users' },
  { permission: 'JOB.READ', path: '/admin/jobs' },
];

export function firstPermittedAdminPage(me: Me): string | null {
  if (me.role === 'ADMIN') return '/admin';
  if (me.role !== 'POWER_USER') return null;
  return POWER_USER_PAGES.find((p) => me.permissions.includes(p.permission))?.path ?? null;
}

/** True when the user may open anything under /admin (the ADMIN role, or a power user with a permitted page). */
export const canOpenAdmin = (me: Me | null | undefined) => !!me && firstPermittedAdminPage(me) !== null;

/** Only same-origin, absolute paths are accepted as redirect targets (no open redirects). */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/auth')) return null;
  return target;
}

/**
 * Landing after login (accounts.md §2): ADMIN → /admin; POWER_USER → first permitted admin page.
 * Decision (contradictions #22, "otherwise the landing is empty"): a power user without any permitted page, and
 * every other role, goes to the redirect target or /dashboard, as a user would expect.
 */
export function landingPath(me: Me, redirect: string | null | undefined): string {
  if (!me.emailVerified) return '/auth/verify-email';
  const admin = firstPermittedAdminPage(me);
  if (admin) return admin;
  return safeRedirect(redirect) ?? '/dashboard';
}
