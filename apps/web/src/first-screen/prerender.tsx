/**
 * The first screen of /dashboard as HTML, rendered at build time (issue 30 item 5, run by build.ts): one page per
 * language, `dist/first-screen/dashboard-<lng>.html`: index.html with the signed-in layout and the dashboard in their loading
 * state (no user data yet: every query but the session pending) rendered by the real components with
 * react-dom/server, before the app's root element. The server sends it for /dashboard to a signed-in user
 * (apps/server/src/platform/http/first-screen.ts fills in the user's initials and name, FIRST_SCREEN_INITIALS and
 * FIRST_SCREEN_NAME here); the browser paints it as soon as the HTML and the CSS arrive, and the app replaces it
 * when it has rendered the same screen (takeover.ts).
 */
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { Me } from '@lamella/contracts';
import { AppLayout } from '../features/layout/AppLayout';
import { ME_KEY } from '../features/auth/session';
import { DashboardWorkbench } from '../features/workbench/DashboardWorkbench';
import { bundledTree } from '../i18n/fallback';
import { LANGUAGES, type Lng } from '../i18n';
import { theme } from '../theme';
import { criticalCss } from './criticalCss';
import { FIRST_SCREEN_ID, FIRST_SCREEN_INITIALS, FIRST_SCREEN_NAME } from './markers';

/** A user for the header: the initials and the name are markers the server replaces with the signed-in user's. */
const placeholderUser: Me = {
  id: '',
  name: FIRST_SCREEN_INITIALS,
  surname: '',
  fullName: FIRST_SCREEN_NAME,
  email: FIRST_SCREEN_NAME,
  role: 'USER',
  permissions: [],
  grpAdmin: false,
  language: 'en',
  emailVerified: true,
  twoFactorPending: false,
  impersonatedBy: null,
};

/** The translations the screens are rendered with: the app's own files (packages/i18n/locales), every language. */
export async function initPrerenderI18n(): Promise<void> {
  if (i18n.isInitialized) return;
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: bundledTree(l) }])),
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    showSupportNotice: false,
  });
}

/** The layout with the dashboard, as the app shows them before any of the dashboard's data has arrived. */
export function renderFirstScreen(lng: Lng): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  queryClient.setQueryData(ME_KEY, { ...placeholderUser, language: lng });
  void i18n.changeLanguage(lng);
  return renderToString(
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <MemoryRouter initialEntries={['/dashboard']}>
            <Routes>
              <Route element={<AppLayout />}>
                <Route path="/dashboard/*" element={<DashboardWorkbench />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/**
 * index.html with the first screen before the root element, in `lng` (and its translations preloaded). The app's
 * style sheet (`readCss(href)`: its text) becomes the part of it the screen needs, inline in the head (criticalCss.ts),
 * and the whole sheet's link moves after the screen: the browser paints the screen without waiting for the sheet, and
 * the app's script (which waits for the style sheets before it) runs with all of it.
 */
export function firstScreenPage(indexHtml: string, lng: Lng, readCss: (href: string) => string): string {
  // without the test ids and the file input: nothing of it is to be used, nor found by tests, before the app takes over
  const markup = renderFirstScreen(lng)
    .replace(/ data-testid="[^"]*"/g, '')
    .replace(/<input[^>]*type="file"[^>]*>/g, '');
  if (!indexHtml.includes('<div id="root"></div>')) throw new Error('first screen: index.html has no empty root element');
  const link = /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/.exec(indexHtml);
  if (!link) throw new Error('first screen: index.html links no style sheet');
  const css = criticalCss(readCss(link[1]), markup);
  // the theme's variables (MantineProvider's style elements, first in the markup) again after the whole sheet, which
  // declares Mantine's defaults for them: they win over it as in the app, so the screen does not change when it loads
  const theme = [...markup.matchAll(/<style data-mantine-styles="(?:true|classes)">[^<]*<\/style>/g)].map((m) => m[0]).join('');
  if (!theme) throw new Error('first screen: no theme variables in the markup');
  let page = indexHtml
    .replace(/<html lang="[^"]*"/, `<html lang="${lng}"`)
    // the whole sheet is still asked for at once (the app's script waits for it), without holding back the paint
    .replace(link[0], () => `<link rel="preload" as="style" crossorigin href="${link[1]}"><style data-first-screen>${css}</style>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="${FIRST_SCREEN_ID}" data-lng="${lng}" inert aria-hidden="true">${markup}</div>${link[0]}${theme}<div id="root"></div>`,
    );
  if (lng !== 'en')
    page = page.replace(
      '<link rel="preload" href="/api/languages/en"',
      `<link rel="preload" href="/api/languages/${lng}" as="fetch" crossorigin="use-credentials">\n    <link rel="preload" href="/api/languages/en"`,
    );
  return page;
}
