/**
 * Numbers of the recipe pages in the reader's style (a decimal comma in German): a class's share of the preview
 * and what a job started with a recipe measured (thickness, area fraction, cracks).
 */
const fixed = (value: number, digits: number, lng: string) =>
  new Intl.NumberFormat(lng, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);

/** A class's share of the preview in %, one decimal: "18.0" / "18,0". */
export function formatShare(value: number, lng: string): string {
  return fixed(Number.isFinite(value) ? value : 0, 1, lng);
}

export type RecipeJobValue =
  | { key: 'recipes.apply.thickness'; vars: { value: string } }
  | { key: 'recipes.apply.fraction'; vars: { value: string } }
  | { key: 'recipes.apply.cracks'; vars: { count: number } };

/** What a recipe job measured, as a translation key and its values (2 decimals), or null while it has no result. */
export function recipeJobValue(measurements: Record<string, unknown>, lng: string): RecipeJobValue | null {
  const m = measurements;
  if (typeof m.meanThicknessUm === 'number') return { key: 'recipes.apply.thickness', vars: { value: fixed(m.meanThicknessUm, 2, lng) } };
  if (typeof m.areaFractionPercent === 'number') return { key: 'recipes.apply.fraction', vars: { value: fixed(m.areaFractionPercent, 2, lng) } };
  if (typeof m.crackCount === 'number') return { key: 'recipes.apply.cracks', vars: { count: m.crackCount } };
  return null;
}
