// Loads OpenCV's official WebAssembly build (@techstark/opencv-js) once per thread.
// The emscripten module object is a thenable that resolves to itself, so it must never be
// returned from an async function or passed to resolve(): use `await initCv()` then `cv()`.
import { createRequire } from 'node:module';

// Loaded with require(): the module object has a `then` method, and an ESM namespace carrying it
// would be adopted as a thenable by any loader that awaits a dynamic import (vitest does).
const require = createRequire(import.meta.url);
let cvModule: CV = null;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CV = any;
let readyPromise: Promise<void> | null = null;
let loaded = false;

export function initCv(): Promise<void> {
  if (!readyPromise) {
    cvModule = require('@techstark/opencv-js');
    const m = cvModule as CV;
    readyPromise = new Promise<void>((resolve) => {
      if (m.Mat) {
        loaded = true;
        resolve();
      } else {
        m.onRuntimeInitialized = () => {
          loaded = true;
          resolve();
        };
      }
    });
  }
  return readyPromise;
}

export function cv(): CV {
  if (!loaded) throw new Error('OpenCV not initialised: await initCv() first');
  return cvModule as CV;
}
