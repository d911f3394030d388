// Local-only OCR with tesseract.js: language data from @tesseract.js-data/eng, core from
// tesseract.js-core in node_modules, no cache writes, no network.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);
let workerP: Promise<Worker> | null = null;
let labelWorkerP: Promise<Worker> | null = null;

export function ocrPaths(): { langPath: string; corePath: string } {
  const eng = require('@tesseract.js-data/eng') as { langPath: string };
  const corePath = path.dirname(require.resolve('tesseract.js-core/package.json'));
  return { langPath: eng.langPath, corePath };
}

async function getWorker(): Promise<Worker> {
  if (!workerP) {
    const { langPath, corePath } = ocrPaths();
    workerP = (async () => {
      const w = await createWorker('eng', 1, { langPath, corePath, cacheMethod: 'none', gzip: true });
      await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE, user_defined_dpi: '300' });
      return w;
    })();
    workerP.catch(() => {
      workerP = null;
    });
  }
  return workerP;
}

/**
 * A second worker for scale-bar labels (the general search, 20261123): only digits, the decimal separators and the
 * letters of nm, µm, um and mm are allowed, so a 2 is not read as Z nor a 0 as O. The first worker's settings stay
 * as they were (older versions' labels read as before).
 */
async function getLabelWorker(): Promise<Worker> {
  if (!labelWorkerP) {
    const { langPath, corePath } = ocrPaths();
    labelWorkerP = (async () => {
      const w = await createWorker('eng', 1, { langPath, corePath, cacheMethod: 'none', gzip: true });
      await w.setParameters({
        tessedit_pageseg_mode: PSM.SINGLE_LINE,
        user_defined_dpi: '300',
        tessedit_char_whitelist: '0123456789.,numµμ ',
        preserve_interword_spaces: '1',
      });
      return w;
    })();
    labelWorkerP.catch(() => {
      labelWorkerP = null;
    });
  }
  return labelWorkerP;
}

/** OCR of a scale-bar label given as a PNG (dark text on white), restricted to numbers and length units. */
export async function ocrLabel(png: Buffer): Promise<string> {
  const t0 = performance.now();
  try {
    const w = await getLabelWorker();
    const { data } = await w.recognize(png);
    return data.text.trim();
  } finally {
    ocrStats.calls++;
    ocrStats.ms += performance.now() - t0;
  }
}

/** Wall time spent in ocrLine (for the speed bench, which reports it apart: native OpenCV has no OCR). */
export const ocrStats = { calls: 0, ms: 0 };

/** OCR of one text line given as a PNG (dark text on white). */
export async function ocrLine(png: Buffer): Promise<string> {
  const t0 = performance.now();
  try {
    const w = await getWorker();
    const { data } = await w.recognize(png);
    return data.text.trim();
  } finally {
    ocrStats.calls++;
    ocrStats.ms += performance.now() - t0;
  }
}

export async function terminateOcr(): Promise<void> {
  if (labelWorkerP) {
    const w = await labelWorkerP.catch(() => null);
    labelWorkerP = null;
    if (w) await w.terminate();
  }
  if (workerP) {
    const w = await workerP.catch(() => null);
    workerP = null;
    if (w) await w.terminate();
  }
}
