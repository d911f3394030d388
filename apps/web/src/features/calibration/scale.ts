/** The set-scale arithmetic: a line of known length over the image gives micrometres per pixel. */

export const LENGTH_UNITS = ['nm', 'µm', 'mm'] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

/** Micrometres per unit. */
export const UM_PER_UNIT: Record<LengthUnit, number> = { nm: 0.001, µm: 1, mm: 1000 };

export interface Point {
  x: number;
  y: number;
}

/** Length of the line a→b in pixels. */
export function lineLength(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/**
 * A point on the shown image (CSS pixels) in the image's own pixels: the shown size may be smaller than the
 * original (display rendition, narrow screens).
 */
export function toImagePixels(p: Point, shown: { width: number; height: number }, natural: { width: number; height: number }): Point {
  return { x: (p.x * natural.width) / shown.width, y: (p.y * natural.height) / shown.height };
}

/**
 * µm per pixel from a line of `pixelLength` image pixels that is `knownLength` `unit` long; null when either
 * is not a positive finite number.
 */
export function pixelSizeFromLine(pixelLength: number, knownLength: number, unit: LengthUnit): number | null {
  if (!(Number.isFinite(pixelLength) && pixelLength > 0 && Number.isFinite(knownLength) && knownLength > 0)) return null;
  return (knownLength * UM_PER_UNIT[unit]) / pixelLength;
}

/** A pixel size rounded to 6 significant digits, as it is saved and shown. */
export function roundPixelSize(value: number): number {
  return Number(value.toPrecision(6));
}

/** A typed decimal number (point or comma); NaN when it is not one. */
export function parseDecimal(text: string): number {
  const s = text.trim();
  return /^[0-9]*[.,]?[0-9]+(e[-+]?[0-9]+)?$/i.test(s) ? Number(s.replace(',', '.')) : NaN;
}
