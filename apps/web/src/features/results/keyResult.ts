import type { ValueKind } from '../jobs/format';

/**
 * The key result a collapsed job shows in its header (issue 14 item 5): grain size G, mean layer thickness, total
 * crack length or area fraction — the first of these measurements the job has as a number.
 */
export interface KeyResult {
  labelKey: 'resultText.ui.key.g' | 'resultText.ui.key.thickness' | 'resultText.ui.key.crackLength' | 'resultText.ui.key.areaFraction';
  value: number;
  kind: ValueKind;
}

const KEY_RESULTS: { measurement: string; labelKey: KeyResult['labelKey']; kind: ValueKind }[] = [
  { measurement: 'astmGPlanimetric', labelKey: 'resultText.ui.key.g', kind: 'g' },
  { measurement: 'meanThicknessUm', labelKey: 'resultText.ui.key.thickness', kind: 'number' },
  { measurement: 'totalLengthUm', labelKey: 'resultText.ui.key.crackLength', kind: 'number' },
  { measurement: 'areaFractionPercent', labelKey: 'resultText.ui.key.areaFraction', kind: 'number' },
];

export function keyResultOf(measurements: Record<string, unknown> | null | undefined): KeyResult | null {
  if (!measurements) return null;
  for (const k of KEY_RESULTS) {
    const v = measurements[k.measurement];
    if (typeof v === 'number' && Number.isFinite(v)) return { labelKey: k.labelKey, value: v, kind: k.kind };
  }
  return null;
}
