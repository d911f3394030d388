import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthContext } from '../auth/session.ts';

/**
 * The first screen of /dashboard in the page itself (issue 30 item 5). The web build renders the signed-in layout
 * and the dashboard in their loading state to HTML, once per language (apps/web/src/first-screen/prerender.tsx:
 * `<webDist>/first-screen/dashboard-<lng>.html`, index.html with that markup before the root element); the web app's
 * fallback sends it, with the user's initials and name filled in, for /dashboard to a signed-in caller, so the browser
 * paints the screen when the HTML and CSS arrive instead of after the app's ~900 KB of JavaScript ran. Everyone else
 * gets index.html as before: no session, a second factor still owed, an unverified e-mail (the app sends them to
 * sign-in or to the pending step), an impersonation (its banner is not in the prerendered screen), an access key.
 * The markers are apps/web/src/first-screen/markers.ts's.
 */
const INITIALS_MARKER = '\uE001';
const NAME_MARKER = '\uE002';

/** The paths whose first screen is prerendered (the dashboard route, `/dashboard/*`). */
export function hasFirstScreen(url: string): boolean {
  return /^\/dashboard(?:[/?#]|$)/.test(url);
}

/** Whether this caller sees the signed-in dashboard (RequireUser in the web app), and so its prerendered first screen. */
export function seesFirstScreen(auth: AuthContext | null): auth is AuthContext {
  return Boolean(auth && auth.via === 'session' && !auth.twoFactorPending && auth.user.emailVerified && !auth.impersonatorId);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The user menu's initials and name as the web app shows them (UserMenu.tsx; `fullName` as GET /users/me makes it). */
export function userLabels(user: { name: string; surname: string; email: string }): { initials: string; name: string } {
  const fullName = `${user.name} ${user.surname}`.trim();
  const initials = `${user.name?.[0] ?? ''}${user.surname?.[0] ?? ''}`.toUpperCase() || (user.email[0] ?? '').toUpperCase();
  return { initials, name: fullName || user.email };
}

/**
 * The page with the prerendered first screen for `auth`'s user, in their language; null when the build has none
 * (an older build, or the web app built without it): the caller sends index.html then. Read per request, like the
 * static files, so a rebuilt web app is served without a restart.
 */
export async function firstScreenPage(webDist: string, auth: AuthContext): Promise<string | null> {
  const lng = auth.user.language === 'de' ? 'de' : 'en';
  let page: string;
  try {
    page = await readFile(join(webDist, 'first-screen', `dashboard-${lng}.html`), 'utf8');
  } catch {
    return null;
  }
  const { initials, name } = userLabels(auth.user);
  return page.replaceAll(INITIALS_MARKER, escapeHtml(initials)).replaceAll(NAME_MARKER, escapeHtml(name));
}
