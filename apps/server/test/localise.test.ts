import { describe, expect, it } from 'vitest';
import type { ResultItem } from '@lamella/contracts';
import { keyOfText, kindOfRow, localiseItems, localiseModelName, localiseText } from '../src/modules/jobs/localise.ts';
import { columnHeader, exportValue } from '../src/modules/jobs/export.ts';
import { roundCount, significant } from '../src/platform/http/spreadsheet.ts';

/** Result items as the models wrote them before results were rendered when read (English, as stored in old results). */
const storedEnglish: ResultItem[] = [
  {
    type: 'message',
    status: 'info',
    title: 'Method: ASTM E112-13',
    content:
      'Planimetric (Jeffries): grains inside the field count 1, grains cut by its border ½. Intercept: horizontal and vertical test lines every 4 px (total length 1.234 mm), P = 88.5 intersections; a crossing counts 1, a triple point 1½, a tangent 1, a line end on a boundary ½.',
  },
  {
    type: 'data-table',
    rows: [
      { label: 'ASTM grain size G (planimetric)', labelTooltip: 'E112 Jeffries: G = 3.321928·log10(N_A) − 2.954', value: 8.314, unit: '' },
      { label: 'Grains counted (Jeffries)', labelTooltip: '120 inside + 15 on the border counted half', value: 127.5, unit: '' },
      { label: 'Pixel size', labelTooltip: 'From the scale bar', value: 0.23456, unit: 'µm/px' },
      { label: 'Something a custom model wrote', value: 3, unit: 'mm' },
    ],
  },
  { type: 'histogram', label: 'Grain area distribution', xLabel: 'Grain area', yLabel: 'Count', unit: 'µm²', data: [{ x: [1, 2], y: 3 }] },
  { type: 'bar-chart', data: [], keys: ['length'], xLabel: 'Crack', yLabels: ['Length (µm)'] },
  { type: 'image', filename: 'overlay.png' },
];

describe('results in the reader’s language (localise.ts)', () => {
  it('reads a result stored in English in German: tables, tooltips with parameters, charts, messages', () => {
    const [msg, table, hist, bar, image] = localiseItems(storedEnglish, 'de');
    expect(msg).toMatchObject({ title: 'Verfahren: ASTM E112-13' });
    expect(msg.type === 'message' && msg.content).toContain('Messlinien alle 4 px (Gesamtlänge 1,234 mm), P = 88,5 Schnittpunkte');
    if (table.type !== 'data-table') throw new Error('table expected');
    expect(table.rows.map((r) => r.label)).toEqual([
      'ASTM-Korngröße G (Flächenverfahren)',
      'Gezählte Körner (Jeffries)',
      'Pixelgröße',
      'Something a custom model wrote',
    ]);
    expect(table.rows.map((r) => r.labelTooltip)).toEqual([
      'E112 Jeffries: G = 3,321928·log10(N_A) − 2,954',
      '120 innen + 15 am Rand (halb gezählt)',
      'Aus dem Maßstabsbalken',
      undefined,
    ]);
    expect(table.rows.map((r) => r.kind)).toEqual(['g', 'count', 'pixelSize', 'number']);
    // numbers stay as stored
    expect(table.rows.map((r) => r.value)).toEqual([8.314, 127.5, 0.23456, 3]);
    expect(hist).toMatchObject({ label: 'Verteilung der Kornfläche', xLabel: 'Kornfläche', yLabel: 'Anzahl' });
    expect(bar).toMatchObject({ xLabel: 'Riss', yLabels: ['Länge (µm)'] });
    expect(image).toEqual({ type: 'image', filename: 'overlay.png' });
  });

  it('reads a German result in English, and leaves the stored items untouched', () => {
    const german: ResultItem[] = [
      { type: 'message', status: 'warning', title: 'Keine Kalibrierung', content: 'x', code: 'CALIBRATION_MISSING' },
      { type: 'data-table', rows: [{ label: 'Mittlere Dicke', labelTooltip: 'Senkrecht zur Schicht', value: 12.3456, unit: 'µm' }] },
    ];
    const copy = structuredClone(german);
    const [msg, table] = localiseItems(german, 'en');
    expect(msg).toMatchObject({ title: 'No calibration', content: 'x', code: 'CALIBRATION_MISSING' });
    expect(table.type === 'data-table' && table.rows[0]).toMatchObject({
      label: 'Mean thickness',
      labelTooltip: 'Perpendicular to the layer',
      kind: 'number',
    });
    expect(german).toEqual(copy);
  });

  it('takes the parameters back out of templated texts and fills them into the other language', () => {
    expect(
      keyOfText(
        'G planimetric 8.31 and G intercept 9.02 are more than 0.5 apart: the structure may be elongated, duplex or not fully segmented. Check the overlay.',
      ),
    ).toEqual({
      key: 'resultText.message.gDiffer',
      params: { gP: '8.31', gI: '9.02' },
    });
    expect(localiseText('The analysed area is 20×20 px: at least 32×32 px are needed to measure. Choose a larger crop.', 'de')).toBe(
      'Der ausgewertete Bereich ist 20×20 px groß: zum Messen sind mindestens 32×32 px nötig. Wählen Sie einen größeren Ausschnitt.',
    );
    expect(localiseText('Unknown words', 'de')).toBe('Unknown words');
    // grain size 20261127: the colonies of a lamellar structure
    expect(
      localiseText(
        '62 % of the structure consists of parallel lamellae (e.g. pearlite colonies or bainite), mean random line spacing 2.77 µm. 34 colonies (regions where the lamellae run one way, bounded where their direction changes by about 10° or more) cover 100 % of the area; they are counted as grains, together with the grains without lamellae. G is therefore a colony size, not the prior-austenite grain size: to measure that, draw its boundaries in the mask editor.',
        'de',
      ),
    ).toMatch(/^62 % des Gefüges .* Linienabstand auf den Messlinien 2.77 µm. 34 Kolonien .* bedecken 100 % der Fläche/);
    expect(localiseText('Lamellar structure: G of the colonies', 'de')).toBe('Lamellares Gefüge: G der Kolonien');
    // grain size 20261127: grains told apart by tone
    expect(
      localiseText(
        'No network of boundary lines was found (only 3 % of the thin-line response forms one): the grains differ by tone (a tint etch photographed in grey, channelling contrast) or their boundary lines are too faint for the noise. They were segmented by merging neighbouring regions of the same tone; neighbouring grains of nearly the same tone are counted as one. Check the overlay.',
        'de',
      ),
    ).toMatch(/^Es wurde kein Netz von Korngrenzlinien gefunden \(nur 3 % der Linienantwort/);
    // grain size 20261201: the learned segmentation's self-checks, written by the model in English and read in German
    expect(
      localiseText(
        'The network was unsure of many of the boundaries it drew (mean confidence 41 %): faint or missing boundary contrast, or a structure unlike the ones it learned. Check the overlay, and correct the segmentation or etch again if grains are merged or split.',
        'de',
      ),
    ).toMatch(/^Das Netz war sich bei vielen der gezogenen Korngrenzen unsicher \(mittlere Sicherheit 41 %\)/);
    expect(localiseText('Annealing twins not counted', 'de')).toBe('Glühzwillinge nicht gezählt');
    expect(
      localiseText(
        'This does not look like a grain structure: one region covers 80 % of the analysed area, with no grain boundaries across it. Is it a pore, coating or crack image? Choose the model that measures it, or crop to the grains.',
        'de',
      ),
    ).toMatch(/^Das sieht nicht nach einem Korngefüge aus: ein Bereich bedeckt 80 %/);
  });

  it('kinds by unit when the label is unknown', () => {
    expect(kindOfRow('Whatever', 'µm/px')).toBe('pixelSize');
    expect(kindOfRow('Pore count', '')).toBe('count');
  });

  it('names built-in models in German unless staff renamed them', () => {
    expect(localiseModelName({ name: 'grain-size', displayName: 'Grain size (ASTM E112)' }, 'de')).toBe('Korngröße (ASTM E112)');
    expect(localiseModelName({ name: 'grain-size', displayName: 'Grain size (ASTM E112)' }, 'en')).toBe('Grain size (ASTM E112)');
    expect(localiseModelName({ name: 'grain-size', displayName: 'Our grain model' }, 'de')).toBe('Our grain model');
    expect(localiseModelName({ name: 'custom', displayName: 'Custom' }, 'de')).toBe('Custom');
  });
});

describe('export values and headers (export.ts)', () => {
  it('rounds counts to integers (halves of Jeffries stay), G and lengths to 2 decimals, the pixel size to 4 significant digits', () => {
    expect(exportValue('poreCount', 17.0000001, 'en')).toBe(17);
    expect(exportValue('grainCount', 127.5, 'en')).toBe(127.5);
    expect(exportValue('astmGPlanimetric', 8.31456, 'en')).toBe(8.31);
    expect(exportValue('meanInterceptUm', 12.005, 'en')).toBe(12.01);
    expect(exportValue('pixelSizeUm', 0.234567, 'en')).toBe(0.2346);
    expect(exportValue('crackAreaFraction', 0.012345, 'en')).toBe(1.23);
    expect(exportValue('lamellarShare', 0.53502, 'en')).toBe(53.5);
    expect(exportValue('calibrationSource', 'scale-bar', 'de')).toBe('Aus dem Maßstabsbalken');
    expect(exportValue('astmGIntercept', null, 'en')).toBeNull();
    expect(roundCount(3.0000001)).toBe(3);
    expect(significant(1234.567, 4)).toBe(1235);
  });

  it('heads columns readably with units in the language, unknown keys by their code', () => {
    expect(columnHeader('astmGPlanimetric', 'en')).toBe('ASTM G (planimetric)');
    expect(columnHeader('meanInterceptUm', 'en')).toBe('Mean intercept length (µm)');
    expect(columnHeader('meanInterceptUm', 'de')).toBe('Mittlere Sehnenlänge (µm)');
    expect(columnHeader('lamellarSpacingUm', 'de')).toBe('Mittlerer Lamellenabstand auf Messlinien (µm)');
    expect(columnHeader('somethingNew', 'de')).toBe('somethingNew');
  });
});
