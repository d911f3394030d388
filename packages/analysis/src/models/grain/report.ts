// Grain size: the E112 counting of each version and the method and warning texts of the result.
import { type Gray } from '../../image.js';
import { meanIntercept, type InterceptResult } from '../../measure/astm.js';
import { e112Intercept } from '../../measure/e112.js';
import { type Context, fmt, fmtIn, tr } from '../common.js';

/**
 * 20261127: below this share of its boundary-line pixels in a network (lineNetwork), a grey image has no usable
 * boundary lines: its grains are segmented by tone (the line model would segment texture or noise).
 */
export const TONE_NETWORK = 0.45;

export const greyToRgb = (img: Gray) => {
  const rgb = new Uint8Array(3 * img.data.length);
  for (let i = 0; i < img.data.length; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = img.data[i];
  return rgb;
};

/** 20261127: says that the grains were told apart by tone, there being no network of boundary lines. */
export function toneItem(ctx: Context, network: number): void {
  const { lang } = ctx;
  ctx.items.push({
    type: 'message',
    status: 'info',
    title: tr(lang, { en: 'Grains told apart by tone', de: 'Körner nach Grauton unterschieden' }),
    content: tr(lang, {
      en: `No network of boundary lines was found (only ${fmt(100 * network, 0)} % of the thin-line response forms one): the grains differ by tone (a tint etch photographed in grey, channelling contrast) or their boundary lines are too faint for the noise. They were segmented by merging neighbouring regions of the same tone; neighbouring grains of nearly the same tone are counted as one. Check the overlay.`,
      de: `Es wurde kein Netz von Korngrenzlinien gefunden (nur ${fmt(100 * network, 0)} % der Linienantwort bilden eines): die Körner unterscheiden sich im Grauton (Farbätzung mit Graubildkamera, Channelling-Kontrast) oder ihre Grenzlinien sind für das Rauschen zu schwach. Sie wurden durch Zusammenfassen benachbarter Bereiche gleichen Tons getrennt; benachbarte Körner fast gleichen Tons zählen als eines. Prüfen Sie das Overlay.`,
    }),
  });
}

/**
 * The intercept count of each version. 20261123: E112's intersections P on the test lines (crossings 1,
 * triple points 1½, tangents 1, line ends on a boundary ½; measure/e112.ts). 20250101: changes of grain label,
 * dropping runs shorter than 15 % of L̄ as boundary flicker. 20241025: changes of grain label.
 */
/** From 20261202 the intercept counts a line passing a junction once (e112Intercept's `junctionEvents`). */
export const junctionEvents = (version: string): boolean => version >= '20261202';

/**
 * The E112 count as the test-line image draws it: its totals and every counted intersection in the order counted,
 * as (pixel, weight, 1 on a vertical line else 0) triples, so the image replays the count instead of counting again.
 */
export interface CountedIntercept {
  lines: number;
  marks: number;
  intersections: number;
  hits: number[];
}

export function interceptOf(
  labels: Int32Array,
  w: number,
  h: number,
  valid: Uint8Array,
  spacing: number,
  version: string,
): InterceptResult & { marks?: number; counted?: CountedIntercept } {
  if (version >= '20261123') {
    const hits: number[] = [];
    const r = e112Intercept(
      labels,
      w,
      h,
      valid,
      spacing,
      3,
      (pixel, weight, vertical) => hits.push(pixel, weight, vertical ? 1 : 0),
      junctionEvents(version),
    );
    // marks: the intersections counted, each once (P weighs them)
    return {
      lengthPx: r.lengthPx,
      intersections: r.intersections,
      meanInterceptPx: r.meanInterceptPx,
      marks: r.marks,
      counted: { lines: r.lines, marks: r.marks, intersections: r.intersections, hits },
    };
  }
  const I0 = meanIntercept(labels, w, h, valid, spacing);
  if (version < '20250101' || !Number.isFinite(I0.meanInterceptPx)) return I0;
  return meanIntercept(labels, w, h, valid, spacing, Math.max(3, Math.round(I0.meanInterceptPx * 0.15)));
}

/** E112 asks for at least 50 grains (planimetric) and 50 intersections (intercept) per field; fewer are refused below this. */
export const MIN_GRAINS = 5;

export const E112_MIN_COUNT = 50;

/**
 * P is the weighted count of the intersections (a triple point 1½, a line end ½): said as such, with the number of
 * intersections it weighs, so that P next to the test-line image's marks reads as what it is (en, de).
 */
export function weightedP(lang: string, P: number, marks: number): string {
  const n = fmtIn(lang, P, 1);
  return lang === 'de' ? `P = ${n}, die gewichtete Zahl von ${marks} Schnittpunkten` : `P = ${n}, the weighted count of ${marks} intersections`;
}

/**
 * The method statement of E112 and its warnings: few grains or intersections, planimetric and intercept apart.
 * `marks`: the intersections P weighs (each counted once).
 */
export function e112Items(
  ctx: Context,
  r: { grains: number; intersections: number; marks?: number; lengthPx: number; spacing: number; gP: number; gI: number },
) {
  const { lang, pixelSizeUm: px } = ctx;
  // no length is claimed without a calibration: the test lines' length is then said in pixels (issue 24 item 7)
  const calibrated = ctx.calibrationSource !== 'none';
  const n = (v: number, d: number) => fmtIn(lang, v, d);
  const total = calibrated ? `${n((r.lengthPx * px) / 1000, 3)} mm` : `${n(r.lengthPx, 0)} px`;
  const uncal = calibrated
    ? { en: '', de: '' }
    : { en: ' The image has no calibration: no length is given.', de: ' Das Bild ist nicht kalibriert: es wird keine Länge angegeben.' };
  ctx.items.push({
    type: 'message',
    status: 'info',
    title: tr(lang, { en: 'Method: ASTM E112-13', de: 'Verfahren: ASTM E112-13' }),
    content: tr(lang, {
      en: `Planimetric (Jeffries): grains inside the field count 1, grains cut by its border ½. Intercept: horizontal and vertical test lines every ${r.spacing} px (total length ${total}), ${r.marks === undefined ? `P = ${n(r.intersections, 1)} intersections;` : `${weightedP('en', r.intersections, r.marks)}:`} a crossing counts 1, a triple point 1½, a tangent 1, a line end on a boundary ½.${uncal.en}`,
      de: `Flächenverfahren (Jeffries): Körner im Feld zählen 1, vom Rand geschnittene ½. Linienschnitt: waagrechte und senkrechte Messlinien alle ${r.spacing} px (Gesamtlänge ${total}), ${r.marks === undefined ? `P = ${n(r.intersections, 1)} Schnittpunkte;` : `${weightedP('de', r.intersections, r.marks)}:`} ein Schnitt zählt 1, ein Tripelpunkt 1½, eine Tangente 1, ein Linienende auf einer Korngrenze ½.${uncal.de}`,
    }),
  });
  if (r.grains < E112_MIN_COUNT || r.intersections < E112_MIN_COUNT)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Fewer than 50 counts (ASTM E112)', de: 'Weniger als 50 Zählungen (ASTM E112)' }),
      content: tr(lang, {
        en: `E112 asks for at least 50 grains or 50 intersections per field; this field has ${n(r.grains, 1)} grains and ${n(r.intersections, 1)} intersections. Measure more fields or a larger area for a reliable G.`,
        de: `E112 verlangt mindestens 50 Körner bzw. 50 Schnittpunkte je Feld; dieses Feld hat ${n(r.grains, 1)} Körner und ${n(r.intersections, 1)} Schnittpunkte. Messen Sie mehr Felder oder eine größere Fläche für ein verlässliches G.`,
      }),
    });
  if (Number.isFinite(r.gP) && Number.isFinite(r.gI) && Math.abs(r.gP - r.gI) > 0.5)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Planimetric and intercept G differ', de: 'G aus Flächen- und Linienschnittverfahren weichen ab' }),
      content: tr(lang, {
        en: `G planimetric ${fmt(r.gP, 2)} and G intercept ${fmt(r.gI, 2)} are more than 0.5 apart: the structure may be elongated, duplex or not fully segmented. Check the overlay.`,
        de: `G Flächenverfahren ${n(r.gP, 2)} und G Linienschnitt ${n(r.gI, 2)} liegen mehr als 0,5 auseinander: das Gefüge kann gestreckt, zweiphasig oder unvollständig segmentiert sein. Prüfen Sie die Überlagerung.`,
      }),
    });
}
