import { FIRST_SCREEN_ID } from './markers';

/** What a loading placeholder carries (the session's FullPageLoader, a lazy page's spinner): not the screen yet. */
export const LOADING_ATTR = 'data-app-loading';

/**
 * The element the app renders into (main.tsx). Without a prerendered first screen: the root element. With one (the
 * server sent /dashboard to a signed-in user with the screen already in the HTML, first-screen/prerender.tsx): a new
 * element outside the document, so that the prerendered screen stays on display, and nothing of the app's own
 * loading steps shows or is found twice, while the app loads its session, translations and code; the app's element
 * takes the place of the root element (and the prerendered screen goes) in the same task as the app first commits
 * something that is not a loading placeholder: the dashboard (the same screen, so nothing moves), or whatever else it
 * chose to show (the sign-in page when the session ended meanwhile, an error). A MutationObserver's callback runs
 * before the browser paints again, so no frame shows neither or both.
 */
export function appContainer(doc: Document = document): HTMLElement {
  const root = doc.getElementById('root')!;
  const shell = doc.getElementById(FIRST_SCREEN_ID);
  if (!shell) return root;
  const container = doc.createElement('div');
  const observer = new MutationObserver(() => {
    if (container.childElementCount === 0 || container.querySelector(`[${LOADING_ATTR}]`)) return;
    observer.disconnect();
    container.id = 'root';
    shell.remove();
    root.replaceWith(container);
  });
  observer.observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: [LOADING_ATTR] });
  return container;
}

/** The language the prerendered screen is in (the signed-in user's): the app starts in it, so no text changes. */
export function firstScreenLanguage(doc: Document = document): string | undefined {
  return doc.getElementById(FIRST_SCREEN_ID)?.dataset.lng;
}
