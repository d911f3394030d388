// Which class each model measures in a recipe (issue 22). No imports: the server reads it without the engine.

/** Class indexes into the recipe's classes. */
export interface RecipeMeasures {
  /** layer-thickness: the layer to measure. */
  layer?: number | null;
  /** porosity: the classes measured as the dark phase / pores. */
  phase?: number[] | null;
  /** cracks: the crack class. */
  crack?: number | null;
  /** cracks: the layer or phase the cracks are looked for in (ridge detection inside it when there is no crack class). */
  crackRegion?: number | null;
}

/** Whether the recipe names a class for the model (layer-thickness, porosity, cracks read recipes). */
export function recipeMeasures(model: string, m: RecipeMeasures): boolean {
  if (model === 'layer-thickness') return Number.isInteger(m.layer);
  if (model === 'porosity') return !!m.phase?.length;
  if (model === 'cracks') return Number.isInteger(m.crack) || Number.isInteger(m.crackRegion);
  return false;
}
