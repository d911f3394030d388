import { describe, expect, it } from 'vitest';
import { LEGEND_LABELS, legendKey, legendKind } from './legend';
import en from '../../../../../packages/i18n/locales/en/maskEditor.json';
import de from '../../../../../packages/i18n/locales/de/maskEditor.json';

describe('mask legend', () => {
  it('names what label 1 is for each model', () => {
    expect(legendKind('grain-size')).toBe('grains');
    expect(legendKind('layer-thickness')).toBe('layer');
    expect(legendKind('cracks')).toBe('cracks');
    expect(legendKind('porosity')).toBe('pores');
    expect(legendKind('scale-bar')).toBe('other');
    expect(legendKey('grain-size', 0)).toBe('maskEditor.legendLabels.grains.0');
    expect(legendKey('porosity', 1)).toBe('maskEditor.legendLabels.pores.1');
  });
  it('has an English and a German text for every label of every kind', () => {
    for (const model of ['grain-size', 'layer-thickness', 'cracks', 'porosity', 'unknown'])
      for (const label of LEGEND_LABELS) {
        const [, , kind, l] = legendKey(model, label).split('.');
        for (const tree of [en, de]) {
          const text = (tree.legendLabels as Record<string, Record<string, string>>)[kind][l];
          expect(text, `${kind}.${l}`).toMatch(/\S/);
        }
      }
    expect(en.legendLabels.grains['0']).toMatch(/boundar/i);
    expect(en.legendLabels.grains['1']).toMatch(/grain interior/i);
  });
});
