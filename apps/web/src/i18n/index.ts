/**
 * i18next set-up. The translation tree is served by the server at `GET /api/languages/{lng}` (with admin overrides);
 * it is loaded as one resource bundle per language so keys read `t('auth.passwordValidator.length')`.
 * When the server cannot be reached the bundled copy of packages/i18n/locales is loaded instead (lazily: it stays
 * out of the entry chunk), so the login page never shows raw keys.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { systemApi } from '@lamella/contracts';
import { call } from '../api/client';
import { getCookie, setCookie } from '../lib/cookies';
import { firstScreenLanguage } from '../first-screen/takeover';

export const LANGUAGES = ['en', 'de'] as const;
export type Lng = (typeof LANGUAGES)[number];
export const FALLBACK_LNG: Lng = 'en';
export const LNG_COOKIE = 'lng';
const LNG_COOKIE_DAYS = 365;

type Tree = { [key: string]: string | Tree };

/** The bundled copy (./fallback.ts, its own chunk, loaded only when needed); empty when even that fails. */
async function bundledTree(lng: Lng): Promise<Tree> {
  try {
    return (await import('./fallback')).bundledTree(lng);
  } catch {
    return {};
  }
}

export function isLng(value: unknown): value is Lng {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Language before we know the user: the prerendered first screen's (the server chose the signed-in user's language,
 * first-screen/takeover.ts), else cookie `lng`, else the browser's language when German, else English.
 */
export function initialLanguage(): Lng {
  const prerendered = firstScreenLanguage();
  if (isLng(prerendered)) return prerendered;
  const cookie = getCookie(LNG_COOKIE);
  if (isLng(cookie)) return cookie;
  const browser = (navigator.languages?.[0] ?? navigator.language ?? '').toLowerCase();
  return browser.startsWith('de') ? 'de' : FALLBACK_LNG;
}

async function fetchTree(lng: Lng): Promise<Tree> {
  try {
    const res = await fetch(`/api/languages/${lng}`, { credentials: 'include', headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(String(res.status));
    return (await res.json()) as Tree;
  } catch {
    return await bundledTree(lng);
  }
}

const loaded = new Set<Lng>();

async function ensureLoaded(lng: Lng): Promise<void> {
  if (loaded.has(lng)) return;
  const tree = await fetchTree(lng);
  i18n.addResourceBundle(lng, 'translation', tree, true, true);
  loaded.add(lng);
}

export async function initI18n(): Promise<typeof i18n> {
  const lng = initialLanguage();
  // the prerendered screen's language is the user's: remembered, as LanguageSync's change to it would have done
  if (firstScreenLanguage() === lng && getCookie(LNG_COOKIE) !== lng) setCookie(LNG_COOKIE, lng, LNG_COOKIE_DAYS);
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: FALLBACK_LNG,
    supportedLngs: [...LANGUAGES],
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  await Promise.all([ensureLoaded(lng), lng === FALLBACK_LNG ? Promise.resolve() : ensureLoaded(FALLBACK_LNG)]);
  document.documentElement.lang = lng;
  return i18n;
}

/** Switches the UI language and remembers it in the `lng` cookie (1 year). */
export async function changeLanguage(lng: Lng): Promise<void> {
  setCookie(LNG_COOKIE, lng, LNG_COOKIE_DAYS);
  await ensureLoaded(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
}

/**
 * Loads the served trees again (after staff reload the translations, PUT /languages, so their overrides show
 * without a page reload) and re-renders every `t()`. Fails, changing nothing, when the server cannot be reached.
 */
export async function refetchTranslations(): Promise<void> {
  const trees = await Promise.all([...loaded].map(async (lng) => [lng, (await call(systemApi.translations, { params: { lng } })) as Tree] as const));
  for (const [lng, tree] of trees) i18n.addResourceBundle(lng, 'translation', tree, true, true);
  await i18n.changeLanguage(i18n.language);
}

export function currentLanguage(): Lng {
  return isLng(i18n.language) ? i18n.language : FALLBACK_LNG;
}

export default i18n;
