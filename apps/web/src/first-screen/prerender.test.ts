import { beforeAll, describe, expect, it } from 'vitest';
import { firstScreenPage, initPrerenderI18n, renderFirstScreen } from './prerender';
import { FIRST_SCREEN_INITIALS, FIRST_SCREEN_NAME } from './markers';

const indexHtml = [
  '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head>',
  '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  '<link rel="preload" href="/api/languages/en" as="fetch" crossorigin="use-credentials">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');
const css = ':root{--x:1}.m_8a5d1357{font-weight:700}.unused-class{color:red}';

describe('the prerendered first screen of /dashboard', () => {
  beforeAll(() => initPrerenderI18n());

  it('renders the layout and the dashboard in their loading state, in the language asked, with the user markers', () => {
    const en = renderFirstScreen('en');
    expect(en).toContain('Upload micrographs');
    expect(en).toContain(FIRST_SCREEN_INITIALS);
    expect(en).toContain(FIRST_SCREEN_NAME);
    expect(en).toContain('mantine-Skeleton-root');
    const de = renderFirstScreen('de');
    expect(de).toContain('Schliffbilder hochladen');
    expect(de).not.toContain('Upload micrographs');
  });

  it('puts it before the root element, inert, with the needed CSS inline and the whole sheet after it', () => {
    const page = firstScreenPage(indexHtml, 'de', (href) => (href === '/assets/index-1.css' ? css : ''));
    expect(page).toContain('<html lang="de"');
    expect(page).toContain('<link rel="preload" as="style" crossorigin href="/assets/index-1.css"><style data-first-screen>');
    expect(page).toMatch(/<style data-first-screen>:root\{--x:1\}\.m_8a5d1357\{font-weight:700\}<\/style>/);
    expect(page).not.toContain('unused-class');
    expect(page).toMatch(
      /<div id="first-screen" data-lng="de" inert aria-hidden="true">.*<\/div><link rel="stylesheet" crossorigin href="\/assets\/index-1.css"><style data-mantine-styles="true">.*<div id="root"><\/div>/s,
    );
    expect(page.indexOf('<link rel="stylesheet"')).toBeGreaterThan(page.indexOf('id="first-screen"'));
    expect(page).toContain('<link rel="preload" href="/api/languages/de"');
    // nothing in it for tests or users to act on before the app takes over
    expect(page).not.toContain('data-testid=');
    expect(page).not.toMatch(/<input[^>]*type="file"/);
  });
});
