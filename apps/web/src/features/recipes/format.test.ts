import { describe, expect, it } from 'vitest';
import { formatShare, recipeJobValue } from './format';

describe('recipe numbers in the reader’s style', () => {
  it('the preview’s class shares with one decimal, a decimal comma in German', () => {
    expect(formatShare(18, 'de')).toBe('18,0');
    expect(formatShare(81.96, 'de')).toBe('82,0');
    expect(formatShare(17.96, 'en')).toBe('18.0');
    expect(formatShare(Number.NaN, 'en')).toBe('0.0');
  });

  it('a recipe job’s thickness and fraction with two decimals in the reader’s style; cracks as a count', () => {
    expect(recipeJobValue({ meanThicknessUm: 27.1391 }, 'de')).toEqual({ key: 'recipes.apply.thickness', vars: { value: '27,14' } });
    expect(recipeJobValue({ meanThicknessUm: 1234.5 }, 'de')).toEqual({ key: 'recipes.apply.thickness', vars: { value: '1.234,50' } });
    expect(recipeJobValue({ meanThicknessUm: 27.1391 }, 'en')).toEqual({ key: 'recipes.apply.thickness', vars: { value: '27.14' } });
    expect(recipeJobValue({ areaFractionPercent: 43.031 }, 'de')).toEqual({ key: 'recipes.apply.fraction', vars: { value: '43,03' } });
    expect(recipeJobValue({ crackCount: 1 }, 'de')).toEqual({ key: 'recipes.apply.cracks', vars: { count: 1 } });
    expect(recipeJobValue({}, 'de')).toBeNull();
  });
});
