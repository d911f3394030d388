// Grain size 20261201: the self-checks of the learned segmentation (learned/grains.ts); its overlay is grain/overlay.ts.
import { AnalysisError } from '../errors.js';
import type { LearnedGrains } from '../learned/grains.js';
import { SELF_CHECKS, WORKING_SCALE } from '../learned/tunables.js';
import { fmt, fmtIn, tr, type Context } from './common.js';

/**
 * What the network's answer says about the image: one region over most of the field is no grain structure (a pore,
 * coating or blank image given to the grain model): refused, so no licence unit is spent; boundaries drawn where
 * the network was unsure, or twin lines left out, are said in the user's language. Records the figures.
 */
export function learnedChecks(ctx: Context, g: LearnedGrains): void {
  const { lang } = ctx;
  const m = ctx.measurements;
  m.workingScale = g.scale;
  m.boundaryConfidence = g.confidence;
  m.twinBandsExcluded = g.twinBands;
  // said only for a twinned structure: a few look-alike bands are chance (they are merged all the same)
  m.twinLinesExcluded =
    !ctx.settings.grain?.countTwins &&
    ((g.twinBands > 0 && g.twinBands >= SELF_CHECKS.minTwinBandShare * g.count) || g.twinRatio >= SELF_CHECKS.minTwinRatio);
  if (g.largestShare > SELF_CHECKS.maxLargestShare)
    throw new AnalysisError(
      'NOT_A_GRAIN_STRUCTURE',
      tr(lang, {
        en: `This does not look like a grain structure: one region covers ${fmt(100 * g.largestShare, 0)} % of the analysed area, with no grain boundaries across it. Is it a pore, coating or crack image? Choose the model that measures it, or crop to the grains.`,
        de: `Das sieht nicht nach einem Korngefüge aus: ein Bereich bedeckt ${fmt(100 * g.largestShare, 0)} % der ausgewerteten Fläche, ohne Korngrenzen darin. Ist es ein Bild von Poren, einer Schicht oder Rissen? Wählen Sie das Modell, das es misst, oder schneiden Sie auf die Körner zu.`,
      }),
    );
  if (g.confidence < SELF_CHECKS.minConfidence)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      code: 'LOW_BOUNDARY_CONFIDENCE',
      title: tr(lang, { en: 'Uncertain grain boundaries', de: 'Unsichere Korngrenzen' }),
      content: tr(lang, {
        en: `The network was unsure of many of the boundaries it drew (mean confidence ${fmt(100 * g.confidence, 0)} %): faint or missing boundary contrast, or a structure unlike the ones it learned. Check the overlay, and correct the segmentation or etch again if grains are merged or split.`,
        de: `Das Netz war sich bei vielen der gezogenen Korngrenzen unsicher (mittlere Sicherheit ${fmt(100 * g.confidence, 0)} %): schwacher oder fehlender Grenzkontrast oder ein Gefüge, das es nicht gelernt hat. Prüfen Sie das Overlay und korrigieren Sie die Segmentierung oder ätzen Sie neu, wenn Körner verschmolzen oder geteilt sind.`,
      }),
    });
  // grains finer than the network was trained for, or still finer at the largest scale the finer look may reach
  // (20261202 on): G may read too low
  if (ctx.version >= WORKING_SCALE.finerLookFrom && (g.unconfirmed || g.workingInterceptPx < WORKING_SCALE.minTrainedInterceptPx))
    ctx.items.push({
      type: 'message',
      status: 'warning',
      code: 'GRAINS_TOO_FINE',
      title: tr(lang, { en: 'Grains near the resolution limit', de: 'Körner an der Auflösungsgrenze' }),
      content: tr(lang, {
        en: `The grains are only about ${fmtIn(lang, g.workingInterceptPx / g.scale, 1)} px across in this image, finer than the network reads reliably even when the image is enlarged. Boundaries may be missed, so G may read too low. Capture at a higher magnification or resolution if you can.`,
        de: `Die Körner sind in diesem Bild nur etwa ${fmtIn(lang, g.workingInterceptPx / g.scale, 1)} px groß, feiner als das Netz auch bei vergrößertem Bild sicher liest. Korngrenzen können fehlen, G kann daher zu klein ausfallen. Nehmen Sie das Bild wenn möglich mit höherer Vergrößerung oder Auflösung auf.`,
      }),
    });
  if (m.twinLinesExcluded)
    ctx.items.push({
      type: 'message',
      status: 'info',
      code: 'TWINS_EXCLUDED',
      title: tr(lang, { en: 'Annealing twins not counted', de: 'Glühzwillinge nicht gezählt' }),
      content: tr(lang, {
        en: 'Straight, parallel-sided twin lines were found inside grains. As ASTM E112 asks, they are not counted as grain boundaries. To count them, run again with the setting "Count annealing twins as boundaries".',
        de: 'In Körnern wurden gerade, parallele Zwillingsgrenzen gefunden. Wie ASTM E112 verlangt, zählen sie nicht als Korngrenzen. Um sie mitzuzählen, starten Sie erneut mit der Einstellung „Glühzwillinge als Korngrenzen zählen“.',
      }),
    });
}
