/**
 * What the labels of the starting mask mean for each model: the models write their own segmentation with label 1
 * on what they measure (grain interiors, the coating, cracks, pores) and 0 elsewhere, and measure a user mask the
 * same way (every label above 0 counts as 1).
 */
export type LegendKind = 'grains' | 'layer' | 'cracks' | 'pores' | 'other';

const KINDS: Record<string, LegendKind> = { 'grain-size': 'grains', 'layer-thickness': 'layer', cracks: 'cracks', porosity: 'pores' };

export const legendKind = (model: string): LegendKind => KINDS[model] ?? 'other';

/** The labels a model reads, in legend order. */
export const LEGEND_LABELS = [0, 1] as const;
export type LegendLabel = (typeof LEGEND_LABELS)[number];

/** The i18n key of a label's meaning for a model (maskEditor.legendLabels.<kind>.<label>). */
export const legendKey = (model: string, label: LegendLabel) => `maskEditor.legendLabels.${legendKind(model)}.${label}` as const;
