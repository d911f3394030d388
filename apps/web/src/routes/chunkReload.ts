/**
 * A screen's code is loaded on first visit (lazyPage). After a deploy the old build's files are gone, so an open
 * tab fails to load them: the app is reloaded once to get the new build. A second failure within RELOAD_WINDOW_MS
 * is not reloaded again (no reload loop); the friendly error page shows instead.
 */
export const RELOAD_KEY = 'lamella.chunkReloadAt';
export const RELOAD_WINDOW_MS = 60_000;

/** Errors browsers and Vite raise when a dynamically imported module cannot be fetched or evaluated. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (CSS )?chunk/i.test(
    text,
  );
}

/** True (and the reload is recorded) when the app may reload now: no reload for a chunk error within the window. */
export function claimChunkReload(storage: Pick<Storage, 'getItem' | 'setItem'>, now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(storage.getItem(RELOAD_KEY) ?? 0) || 0;
  } catch {
    return false;
  }
  if (now - last < RELOAD_WINDOW_MS) return false;
  try {
    storage.setItem(RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  return true;
}
