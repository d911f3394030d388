/**
 * Every message the models write is read in the reader's language (localise.ts): a message added to a model
 * without its resultText entry stays in the language the job ran in (DARK_PHASE_NETWORK and GRAINS_TOO_FINE read
 * English on a German page). The titles of all coded messages are checked from the models' sources; the grain
 * checks' messages are made by the model's own code in both languages and compared after localising.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultItem } from '@lamella/contracts';
import { keyOfText, localiseItems } from '../src/modules/jobs/localise.ts';
import { learnedChecks } from '../../../packages/analysis/src/models/grainLearned.ts';
import type { Context } from '../../../packages/analysis/src/models/common.ts';
import type { LearnedGrains } from '../../../packages/analysis/src/learned/grains.ts';
import { initCv } from '../../../packages/analysis/src/cv.ts';
import { runModel } from '../../../packages/analysis/src/registry.ts';
import { grainImage } from '../../../packages/analysis/src/synth/index.ts';

const MODELS = join(import.meta.dirname, '../../../packages/analysis/src/models');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the models’ messages in the reader’s language', () => {
  it('every coded message title of the models has a resultText entry in English and German', () => {
    const found: string[] = [];
    const missing: string[] = [];
    for (const file of sources(MODELS)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/code: '([A-Z_]+)',\s*title: tr\(lang, \{ en: '([^']+)', de: '([^']+)' \}\)/g)) {
        found.push(m[1]);
        for (const title of [m[2], m[3]]) if (!keyOfText(title)) missing.push(`${m[1]}: ${title}`);
      }
    }
    expect(found).toEqual(expect.arrayContaining(['DARK_PHASE_NETWORK', 'GRAINS_TOO_FINE', 'PORES_LOOK_LIKE_GRAINS', 'TWINS_EXCLUDED']));
    expect(missing).toEqual([]);
  });

  it('the grain checks’ messages (low confidence, grains too fine, twins) of an English job read as the German job’s, decimal comma included', () => {
    const run = (lang: 'en' | 'de') => {
      const ctx = { lang, version: '20261202', settings: {}, measurements: {}, items: [] as ResultItem[] } as unknown as Context;
      const grains = { scale: 2, confidence: 0.41, twinBands: 3, twinRatio: 0.05, largestShare: 0.1, unconfirmed: true, workingInterceptPx: 7 };
      learnedChecks(ctx, grains as unknown as LearnedGrains);
      return ctx.items;
    };
    const english = run('en');
    const german = run('de');
    expect(english.map((i) => i.type === 'message' && i.code)).toEqual(['LOW_BOUNDARY_CONFIDENCE', 'GRAINS_TOO_FINE', 'TWINS_EXCLUDED']);
    expect(localiseItems(english, 'de')).toEqual(german);
    expect(localiseItems(german, 'en')).toEqual(english);
    const tooFine = localiseItems(english, 'de')[1];
    expect(tooFine.type === 'message' && tooFine.content).toContain('nur etwa 3,5 px groß');
  });

  it('the porosity messages (two-phase structure, pores shaped like grains) of an English job read in German', () => {
    const english: ResultItem[] = [
      {
        type: 'message',
        status: 'info',
        code: 'DARK_PHASE_NETWORK',
        title: 'Measured as a two-phase structure',
        content:
          'A threshold finds the dark phase on about 43 % of the image, more than isolated pores cover: it was segmented by the dark-phase network, trained on γ′ precipitates in Ni-base superalloys (SEM). On those images, held out by image, it reads the area fraction 3.3 points off on average. For another material, a recipe that names the phase measures it as you mark it.',
      },
      {
        type: 'message',
        status: 'warning',
        code: 'PORES_LOOK_LIKE_GRAINS',
        title: 'These may not be pores',
        content:
          'The dark phase covers 38.4 % of the image in regions shaped like grains and grain boundaries. Porosity is rarely that high: this looks like a grain or phase structure. Use the grain size model, or a recipe that names the phase to measure.',
      },
    ];
    const [network, grains] = localiseItems(english, 'de');
    expect(network).toMatchObject({ title: 'Als zweiphasiges Gefüge gemessen', code: 'DARK_PHASE_NETWORK' });
    expect(network.type === 'message' && network.content).toMatch(/^Ein Schwellwert findet die dunkle Phase auf etwa 43 % des Bildes/);
    // the network's held-out error is the version's (3.3 points for 20261202's network, 1.9 for 20261207's)
    expect(network.type === 'message' && network.content).toContain('im Mittel 3,3 Punkte daneben');
    const newer = { ...english[0], content: (english[0] as { content: string }).content.replace('3.3 points', '1.9 points') } as ResultItem;
    const [newerDe] = localiseItems([newer], 'de');
    expect(newerDe.type === 'message' && newerDe.content).toContain('im Mittel 1,9 Punkte daneben');
    expect(grains).toMatchObject({ title: 'Das sind womöglich keine Poren' });
    // the model writes 38.4 in both languages; read in German it has a decimal comma
    expect(grains.type === 'message' && grains.content).toMatch(/^Die dunkle Phase bedeckt 38,4 % des Bildes/);
  });

  it('the grain-size messages of an English job (overlay legend with its shown test lines, E112 method) read as the German job’s', async () => {
    await initCv();
    const s = await grainImage({ width: 360, height: 270, grainPx: 26, pixelSizeUm: 0.5, noise: 2, seed: 11 });
    const run = async (lang: 'en' | 'de') => (await runModel('grain-size', undefined, s.png, {}, { pixelSizeUm: 0.5, lang })).items;
    const messages = (items: ResultItem[]) =>
      items.filter((i) => i.type === 'message' && (i.code === 'OVERLAY_LEGEND' || i.title.startsWith('Method') || i.title.startsWith('Verfahren')));
    // the table's tooltips (the intercept's: P, the weighted count of its intersections)
    const tooltips = (items: ResultItem[]) => items.flatMap((i) => (i.type === 'data-table' ? i.rows.map((r) => r.labelTooltip) : []));
    const en = await run('en');
    const de = await run('de');
    const english = messages(en);
    const german = messages(de);
    expect(english).toHaveLength(2);
    for (const m of english) expect(keyOfText(m.type === 'message' ? m.content : '')).not.toBeNull();
    expect(localiseItems(english, 'de')).toEqual(german);
    expect(localiseItems(german, 'en')).toEqual(english);
    expect(tooltips(localiseItems(en, 'de'))).toEqual(tooltips(de));
    expect(tooltips(localiseItems(de, 'en'))).toEqual(tooltips(en));
    expect(tooltips(de).some((t) => t?.startsWith('P = '))).toBe(true);
  }, 60_000);
});
