/**
 * What the prerendered first screen (prerender.tsx) and the server (apps/server/src/platform/http/first-screen.ts)
 * agree on: the element that holds it and the markers in it that the server replaces with the signed-in user's
 * initials and name (characters of Unicode's private use area, which no translation contains).
 */
export const FIRST_SCREEN_ID = 'first-screen';
export const FIRST_SCREEN_INITIALS = '\uE001';
export const FIRST_SCREEN_NAME = '\uE002';
