import { AnalysisError } from '../errors.js';
import { colourOf, cropGray, decodeColour, decodeColourFull, decodeImage, decodeMask, encodePng, type Gray, type Rect } from '../image.js';
import { metadataCalibration, type MetadataCalibration } from '../calibration.js';
import { detectScaleBar, UNIT_TO_UM, type ScaleBarResult } from '../scalebar.js';
import { initCv } from '../cv.js';
import type { RecipeContext } from '../classifier/recipe.js';
import type {
  DataTableItem,
  HistogramItem,
  Lang,
  Measurements,
  MessageItem,
  ModelVersion,
  ResultItem,
  RunFile,
  RunOptions,
  Settings,
} from '../types.js';

export type T2 = { en: string; de: string };
export const tr = (lang: Lang, t: T2) => t[lang] ?? t.en;

export interface Context {
  lang: Lang;
  version: ModelVersion;
  settings: Settings;
  /** analysed image (micrograph ∩ crop) */
  img: Gray;
  /** 1 where the pixel is analysed (not strip/plate) */
  valid: Uint8Array;
  validCount: number;
  /** offset of img in the original image */
  origin: { x: number; y: number };
  /** size of the original image */
  full: { width: number; height: number };
  /** the whole decoded image, strip included (the scale-bar model outlines the bar on it) */
  fullImage?: Gray;
  pixelSizeUm: number;
  scaleBar: ScaleBarResult;
  calibrationSource: CalibrationSource;
  /** What the metadata calibration was read from ("Zeiss SEM", "ImageJ"…), when it was used. */
  metadataSource?: string;
  mask?: Uint16Array;
  /** A trained grain-boundary network (absolute path of its .onnx) replacing the shipped one (RunOptions.network). */
  network?: string;
  /** The recipe's segmentation when the run has a recipe (classifier/recipe.ts); ctx.mask is then its measured class. */
  recipe?: RecipeContext;
  /** The analysed area in colour (RGB, 8 bit, row-major), or null for a grey image; decoded on first call. */
  colour(): Promise<Uint8Array | null>;
  items: ResultItem[];
  files: RunFile[];
  measurements: Measurements;
}

export type CalibrationSource = 'user' | 'metadata' | 'scale-bar' | 'settings' | 'none';

/**
 * The pixel size and where it comes from. The user's value first, in every version. 20261123: then the file's metadata, then a scale
 * bar in the image, then the settings' magnification when it was chosen explicitly (a customization), else none:
 * lengths and G are then not given (counts stay) and a message asks for a calibration. Older versions: then the
 * scale bar, else the settings (default 100 µm = 100 px).
 */
export function calibrate(a: {
  sb: ScaleBarResult;
  settings: Settings;
  opts: RunOptions;
  version: ModelVersion;
  metadataUm: number | null;
  lang: Lang;
}): { pixelSizeUm: number; calibrationSource: CalibrationSource; message?: MessageItem } {
  const { sb, settings, opts, version, lang } = a;
  const fromSettings = () => {
    const m = settings.magnification;
    return (m.number * UNIT_TO_UM[m.unit]) / m.length;
  };
  const fromSettingsWithNote = (): { pixelSizeUm: number; calibrationSource: CalibrationSource; message: MessageItem } => {
    const pixelSizeUm = fromSettings();
    const m = settings.magnification;
    return {
      pixelSizeUm,
      calibrationSource: 'settings',
      message: {
        type: 'message',
        status: 'warning',
        title: tr(lang, { en: 'No scale bar found', de: 'Kein Maßstabsbalken gefunden' }),
        content: tr(lang, {
          en: `Calibrated from the settings: ${m.number} ${m.unit} = ${m.length} px (${fmt(pixelSizeUm, 4)} µm/px).`,
          de: `Kalibrierung aus den Einstellungen: ${m.number} ${m.unit} = ${m.length} px (${fmt(pixelSizeUm, 4)} µm/px).`,
        }),
      },
    };
  };
  // the user's own value wins in every version: it is what they asked for
  if (opts.pixelSizeUm !== undefined && opts.pixelSizeUm !== null) {
    if (!(opts.pixelSizeUm > 0 && Number.isFinite(opts.pixelSizeUm)))
      throw new AnalysisError('INVALID_SETTINGS', 'pixelSizeUm must be a positive number of micrometres per pixel');
    return { pixelSizeUm: opts.pixelSizeUm, calibrationSource: 'user' };
  }
  if (version >= '20261123') {
    if (a.metadataUm) return { pixelSizeUm: a.metadataUm, calibrationSource: 'metadata' };
    if (sb.found && sb.pixelSizeUm) return { pixelSizeUm: sb.pixelSizeUm, calibrationSource: 'scale-bar' };
    if (opts.settingsCalibration !== false) return fromSettingsWithNote();
    return {
      pixelSizeUm: 1,
      calibrationSource: 'none',
      message: {
        type: 'message',
        status: 'warning',
        code: 'CALIBRATION_MISSING',
        title: tr(lang, { en: 'No calibration', de: 'Keine Kalibrierung' }),
        content: tr(lang, {
          // every model's wording (it said "the grain size" on porosity, layer and crack results too)
          en: 'The image has no scale bar, no pixel size in its metadata and none was entered, so lengths, areas and grain sizes are not given (counts and fractions are). Set the pixel size of the image and run it again.',
          de: 'Das Bild hat keinen Maßstabsbalken, keine Pixelgröße in den Metadaten und es wurde keine eingegeben; Längen, Flächen und Korngrößen werden daher nicht angegeben (Anzahlen und Anteile schon). Legen Sie die Pixelgröße des Bildes fest und starten Sie die Auswertung erneut.',
        }),
      },
    };
  }
  if (sb.found && sb.pixelSizeUm) return { pixelSizeUm: sb.pixelSizeUm, calibrationSource: 'scale-bar' };
  return fromSettingsWithNote();
}

/**
 * Removes what needs a length scale from an uncalibrated result (calibration 'none'): measurements in µm, mm or
 * per area, G values, and the table rows and histograms in those units. Counts and fractions stay.
 */
export function dropLengths(ctx: Context): void {
  const lengthKey = /(Um|Um2|Mm|Mm2|PerMm2|MmPerMm2)$|^astmG|^alaAstmG|^pixelSizeUm$/;
  for (const k of Object.keys(ctx.measurements)) if (lengthKey.test(k)) ctx.measurements[k] = null;
  const lengthUnit = /µm|mm/;
  ctx.items = ctx.items.flatMap((it): ResultItem[] => {
    if (it.type === 'data-table') return [{ ...it, rows: it.rows.filter((r) => !lengthUnit.test(r.unit) && !/^ASTM|^G\b/.test(r.label)) }];
    if (it.type === 'histogram' && lengthUnit.test(JSON.stringify(it))) return [];
    return [it];
  });
}

export function rectIntersect(a: Rect, b: Rect): Rect | null {
  const x0 = Math.max(a.x, b.x),
    y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width),
    y1 = Math.min(a.y + a.height, b.y + b.height);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

export async function prepare(image: Uint8Array | Buffer, settings: Settings, opts: RunOptions, version: ModelVersion): Promise<Context> {
  const lang: Lang = opts.lang === 'de' ? 'de' : 'en';
  const full = await decodeImage(image);
  // the colour image (every current version reads it) decodes off the main thread while the scale bar is found
  const colourFull = version >= '20261123' ? decodeColourFull(image) : null;
  colourFull?.catch(() => undefined); // awaited by colour(); never an unhandled rejection meanwhile
  await initCv();
  const sb = await detectScaleBar(full, version);
  const items: ResultItem[] = [];
  // 20261123: the file's tags; 20261201: more vendors, then a sidecar text uploaded with it (JEOL, Hitachi, TESCAN…)
  const meta: MetadataCalibration | null =
    version >= '20261123' ? await metadataCalibration(image, version >= '20261201' ? opts.sidecar : null, version >= '20261201') : null;
  const cal = calibrate({ sb, settings, opts, version, metadataUm: meta?.pixelSizeUm ?? null, lang });
  const { pixelSizeUm, calibrationSource } = cal;
  if (cal.message) items.push(cal.message);
  // a bar was found but its label did not read as a length: it was not used, and the result says so
  if (sb.unreadable && (calibrationSource === 'settings' || calibrationSource === 'none'))
    items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Scale bar label not readable', de: 'Beschriftung des Maßstabsbalkens nicht lesbar' }),
      content: tr(lang, {
        en: 'A scale bar was found, but its label could not be read as a length, so it was not used. Set the pixel size of the image to calibrate it.',
        de: 'Ein Maßstabsbalken wurde gefunden, seine Beschriftung ließ sich aber nicht als Länge lesen; er wurde daher nicht verwendet. Legen Sie die Pixelgröße des Bildes fest, um es zu kalibrieren.',
      }),
    });
  let area: Rect = sb.micrograph;
  if (opts.crop) {
    const c = opts.crop;
    if (![c.x, c.y, c.width, c.height].every((v) => Number.isFinite(v)) || c.width < 1 || c.height < 1)
      throw new AnalysisError('INVALID_CROP', 'Crop must have finite x, y and positive width, height');
    const r = rectIntersect(area, { x: Math.round(c.x), y: Math.round(c.y), width: Math.round(c.width), height: Math.round(c.height) });
    if (!r) throw new AnalysisError('INVALID_CROP', 'Crop lies outside the micrograph');
    area = r;
  }
  const img = cropGray(full, area);
  const valid = new Uint8Array(img.width * img.height).fill(1);
  for (const ex of sb.exclude) {
    const r = rectIntersect(area, ex);
    if (!r) continue;
    for (let y = r.y - area.y; y < r.y - area.y + r.height; y++) valid.fill(0, y * img.width + r.x - area.x, y * img.width + r.x - area.x + r.width);
  }
  let validCount = 0;
  for (let i = 0; i < valid.length; i++) validCount += valid[i];
  // a user mask is measured as it is: only the model's own segmentation needs structure in the image
  if (version >= '20261123') checkMeasurable(img, valid, validCount, lang, !!opts.masks);
  let mask: Uint16Array | undefined;
  if (opts.masks) {
    // masks may be given for the analysed area or for the full image
    const { width: fw, height: fh } = full;
    try {
      mask = await decodeMask(opts.masks, img.width, img.height);
    } catch (e) {
      const m = await decodeMask(opts.masks, fw, fh).catch(() => {
        throw e;
      });
      mask = new Uint16Array(img.width * img.height);
      for (let y = 0; y < img.height; y++) mask.set(m.subarray((area.y + y) * fw + area.x, (area.y + y) * fw + area.x + img.width), y * img.width);
    }
  }
  const measurements: Measurements = {
    pixelSizeUm,
    calibrationSource,
    scaleBarValue: sb.found ? sb.value! : null,
    scaleBarUnit: sb.found ? sb.unit! : null,
    scaleBarLengthPx: sb.found ? sb.lengthPx! : null,
    analysedWidthPx: img.width,
    analysedHeightPx: img.height,
  };
  let colour: Promise<Uint8Array | null> | null = null;
  return {
    lang,
    version,
    settings,
    img,
    colour: () => (colour ??= colourFull ? colourFull.then((c) => c && colourOf(c, area)) : decodeColour(image, area)),
    valid,
    validCount,
    origin: { x: area.x, y: area.y },
    full: { width: full.width, height: full.height },
    fullImage: full,
    pixelSizeUm,
    scaleBar: sb,
    calibrationSource,
    metadataSource: calibrationSource === 'metadata' && version >= '20261201' ? meta?.source : undefined,
    mask,
    network: opts.network ?? undefined,
    items,
    files: [],
    measurements,
  };
}

export function fmt(v: number, digits = 2): string {
  if (!Number.isFinite(v)) return '–';
  return Number(v.toFixed(digits)).toString();
}

/** A number as the reader writes it (German: decimal comma), at most `digits` decimals. */
export const fmtIn = (lang: string, v: number, digits = 2): string => (lang === 'de' ? fmt(v, digits).replace('.', ',') : fmt(v, digits));

export function row(label: string, value: number | string, unit: string, labelTooltip = '', digits = 3) {
  return { label, labelTooltip, value: typeof value === 'number' ? Number(fmt(value, digits)) : value, unit };
}

export function table(rows: DataTableItem['rows']): DataTableItem {
  return { type: 'data-table', rows };
}

const CALIBRATION_SOURCE_TEXT: Record<CalibrationSource, T2> = {
  user: { en: 'Entered by the user', de: 'Vom Benutzer eingegeben' },
  metadata: { en: "From the image file's metadata", de: 'Aus den Metadaten der Bilddatei' },
  'scale-bar': { en: 'From the scale bar', de: 'Aus dem Maßstabsbalken' },
  settings: { en: 'From the settings (no scale bar found)', de: 'Aus den Einstellungen (kein Maßstabsbalken)' },
  none: { en: 'Not calibrated', de: 'Nicht kalibriert' },
};

export function calibrationRows(ctx: Context): DataTableItem['rows'] {
  const { lang, scaleBar: sb } = ctx;
  const rows: DataTableItem['rows'] = [
    row(tr(lang, { en: 'Pixel size', de: 'Pixelgröße' }), ctx.pixelSizeUm, 'µm/px', tr(lang, CALIBRATION_SOURCE_TEXT[ctx.calibrationSource]), 5),
  ];
  if (ctx.metadataSource)
    rows.push(
      row(
        tr(lang, { en: 'Metadata', de: 'Metadaten' }),
        ctx.metadataSource,
        '',
        tr(lang, { en: 'Where the pixel size was read', de: 'Woher die Pixelgröße gelesen wurde' }),
      ),
    );
  if (sb.found)
    rows.push(
      row(
        tr(lang, { en: 'Scale bar', de: 'Maßstabsbalken' }),
        `${sb.value} ${sb.unit} = ${sb.lengthPx} px`,
        '',
        tr(lang, { en: 'Label read by OCR and bar length', de: 'Per OCR gelesene Beschriftung und Balkenlänge' }),
      ),
    );
  return rows;
}

const hex = (c: { r: number; g: number; b: number }) =>
  '#' +
  [c.r, c.g, c.b]
    .map((v) =>
      Math.round(Math.max(0, Math.min(1, v)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
export const rgb255 = (c: { r: number; g: number; b: number }): [number, number, number] =>
  [c.r, c.g, c.b].map((v) => Math.round(Math.max(0, Math.min(1, v)) * 255)) as [number, number, number];
export { hex };

/** The 1-2-5 step (…, 0.5, 1, 2, 5, 10, 20, …) at or above `raw` (1 for a non-positive or non-finite one). */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const e = Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    // m × 10^e, written so that 0.2 is 0.2 (not 2 × 0.1 = 0.20000000000000004)
    const step = e < 0 ? m / 10 ** -e : m * 10 ** e;
    if (step >= raw * (1 - 1e-12)) return step;
  }
  return 10 ** (e + 1);
}

/**
 * The edges of a histogram of values from `lo` to `hi` in about `bins` bins: a 1-2-5 step wide (niceStep), from a
 * multiple of it, so that they read as a scale (0–50, 50–100, … µm², not 12.3456–87.1234). Of the 1-2-5 step at or
 * above (hi − lo) / bins and the one below it, the one whose number of bins is nearer `bins` (by ratio): so 10 bins
 * asked for give 7 to 16.
 */
export function niceBins(lo: number, hi: number, bins: number): { start: number; step: number; count: number } {
  const n = Math.max(1, bins);
  const up = niceStep(hi > lo ? (hi - lo) / n : Math.abs(lo) / n || 1);
  const of = (step: number) => {
    const start = Math.floor(lo / step + 1e-9) * step;
    return { start, step, count: Math.max(1, Math.ceil((hi - start) / step - 1e-9)) };
  };
  const a = of(up);
  if (hi <= lo) return a;
  // the 1-2-5 step below `up` (1 → 0.5, 2 → 1, 5 → 2): the smallest at or above 0.39 × up
  const b = of(niceStep(up * 0.39));
  return Math.abs(Math.log(b.count / n)) < Math.abs(Math.log(a.count / n)) ? b : a;
}

/**
 * Histogram of the values in about `bins` bins of a 1-2-5 width between round edges (niceBins; the top edge
 * belongs to the last bin). The bins are presentation only: no measurement is taken from them (they were `bins`
 * equal parts of min…max, with edges such as 12.3456–87.1234).
 */
export function histogram(values: number[], bins: number, label: string, xLabel: string, yLabel: string, unit: string, color: string): HistogramItem {
  const data: HistogramItem['data'] = [];
  if (values.length) {
    let lo = Infinity,
      hi = -Infinity;
    for (const v of values) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const { start, step, count } = niceBins(lo, hi, bins);
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const edge = (i: number) => Number((start + i * step).toFixed(decimals));
    const counts = new Array(count).fill(0);
    for (const v of values) counts[Math.max(0, Math.min(count - 1, Math.floor((v - start) / step + 1e-9)))]++;
    for (let i = 0; i < count; i++) data.push({ x: [edge(i), edge(i + 1)], y: counts[i], color });
  }
  return { type: 'histogram', label, xLabel, yLabel, unit, data };
}

export function mean(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return a.length ? s / a.length : NaN;
}
export function std(a: ArrayLike<number>): number {
  const m = mean(a);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - m) ** 2;
  return a.length > 1 ? Math.sqrt(s / (a.length - 1)) : 0;
}

/** Otsu threshold of a 256-bin histogram. */
export function otsu(hist: ArrayLike<number>): number {
  let total = 0,
    sum = 0;
  for (let i = 0; i < 256; i++) {
    total += hist[i];
    sum += i * hist[i];
  }
  let sumB = 0,
    wB = 0,
    best = 0,
    bestT = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB,
      mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

export function histOf(data: Uint8Array, valid: Uint8Array): Float64Array {
  const h = new Float64Array(256);
  for (let i = 0; i < data.length; i++) if (valid[i]) h[data[i]]++;
  return h;
}

/** Median grey of the histogram part in [a, b]. */
export function histMedian(h: ArrayLike<number>, a: number, b: number): number {
  let n = 0;
  for (let i = a; i <= b; i++) n += h[i];
  let acc = 0;
  for (let i = a; i <= b; i++) {
    acc += h[i];
    if (acc >= n / 2) return i;
  }
  return (a + b) / 2;
}

/** Smallest analysed side, in pixels, that any model measures. */
export const MIN_SIDE_PX = 32;

/**
 * Self-checks before measuring (20261123): an area too small to hold a measurement, or a blank or near-constant
 * image (grey levels spread less than 2 of 255), is refused with a message in the run's language, instead of
 * giving confident numbers.
 */
export function checkMeasurable(img: Gray, valid: Uint8Array, validCount: number, lang: Lang, hasMask = false): void {
  if (Math.min(img.width, img.height) < MIN_SIDE_PX || validCount < MIN_SIDE_PX * MIN_SIDE_PX)
    throw new AnalysisError(
      'IMAGE_TOO_SMALL',
      tr(lang, {
        en: `The analysed area is ${img.width}×${img.height} px: at least ${MIN_SIDE_PX}×${MIN_SIDE_PX} px are needed to measure. Choose a larger crop.`,
        de: `Der ausgewertete Bereich ist ${img.width}×${img.height} px groß: zum Messen sind mindestens ${MIN_SIDE_PX}×${MIN_SIDE_PX} px nötig. Wählen Sie einen größeren Ausschnitt.`,
      }),
    );
  let s = 0,
    q = 0;
  for (let i = 0; i < valid.length; i++)
    if (valid[i]) {
      const v = img.data[i];
      s += v;
      q += v * v;
    }
  const sd = Math.sqrt(Math.max(0, q / validCount - (s / validCount) ** 2));
  if (sd < 2 && !hasMask)
    throw new AnalysisError(
      'BLANK_IMAGE',
      tr(lang, {
        en: 'The image is blank or nearly uniform (no structure to measure). Check the file, its exposure and the crop.',
        de: 'Das Bild ist leer oder nahezu gleichförmig (keine messbare Struktur). Prüfen Sie Datei, Belichtung und Ausschnitt.',
      }),
    );
}

/**
 * Models that work on grey say so when they are given a colour image whose colour carries contrast (20261123):
 * the measurement then uses its lightness only.
 */
export async function warnIfColour(ctx: Context, colourContrast: (rgb: Uint8Array, valid: Uint8Array) => boolean): Promise<void> {
  if (ctx.version < '20261123') return;
  const rgb = await ctx.colour();
  if (!rgb || !colourContrast(rgb, ctx.valid)) return;
  ctx.items.push({
    type: 'message',
    status: 'warning',
    title: tr(ctx.lang, { en: 'Colour image measured in grey', de: 'Farbbild in Graustufen gemessen' }),
    content: tr(ctx.lang, {
      en: 'This model works on brightness. The colour differences in this image were not used; check the overlay.',
      de: 'Dieses Modell arbeitet mit der Helligkeit. Die Farbunterschiede dieses Bildes wurden nicht genutzt; prüfen Sie die Überlagerung.',
    }),
  });
}

/** File name of the model's own segmentation, the mask editor's starting mask (20261123). */
export const SEGMENTATION_FILE = 'segmentation.png';

/**
 * Writes the model's own segmentation as a label mask of the whole image (20261123): 1 where `features` is set
 * (grain interiors, coating, cracks, pores), 0 elsewhere and outside the analysed area. It is what the model
 * measures from when given back as a mask, so correcting it in the mask editor and re-running measures the
 * correction. Not written when the run already measured a user mask.
 */
export async function addSegmentationFile(ctx: Context, features: (i: number) => boolean): Promise<void> {
  if (ctx.version < '20261123' || ctx.mask) return;
  const { width: w, height: h } = ctx.img;
  const { width: W, height: H } = ctx.full;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < h; y++) {
    const row = (ctx.origin.y + y) * W + ctx.origin.x;
    for (let x = 0; x < w; x++) if (ctx.valid[y * w + x] && features(y * w + x)) out[row + x] = 1;
  }
  ctx.files.push({ filename: SEGMENTATION_FILE, data: await encodePng(out, W, H, 1) });
}

/** The q-quantile (0..1) of the values: the sorted value at index ⌊(n − 1)·q⌋; 0 for no values. */
export function quantile(a: ArrayLike<number>, q: number): number {
  const s = Float32Array.from(a).sort();
  return s.length ? s[Math.floor((s.length - 1) * q)] : 0;
}
