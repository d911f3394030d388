import type { Context } from './common.js';
import { calibrationRows, table, tr } from './common.js';

export async function runScaleBar(ctx: Context): Promise<void> {
  const { lang, scaleBar: sb } = ctx;
  ctx.items.push(
    table([
      ...calibrationRows(ctx),
      ...(sb.found
        ? [
            { label: tr(lang, { en: 'Bar length', de: 'Balkenlänge' }), labelTooltip: '', value: sb.lengthPx!, unit: 'px' },
            {
              label: tr(lang, { en: 'Label', de: 'Beschriftung' }),
              labelTooltip: tr(lang, { en: 'Read by OCR', de: 'Per OCR gelesen' }),
              value: `${sb.value} ${sb.unit}`,
              unit: '',
            },
          ]
        : []),
    ]),
  );
  if (sb.found) ctx.measurements.scaleBarStyle = sb.style!;
}
