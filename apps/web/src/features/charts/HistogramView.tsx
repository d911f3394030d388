import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HistogramItem } from '../jobs/types';
import { histogramBinLabels } from '@lamella/contracts';
import { formatAxis } from '../jobs/format';
import { NoData } from './NoData';

/**
 * A `histogram` result item: one bar per bin (x a value or a range), bar colours from the points; y counts, with
 * integer ticks. The bins' labels all have the decimals their width asks for (histogramBinLabels, as in the PDF).
 */
export function HistogramView({ item }: { item: HistogramItem }) {
  const { i18n } = useTranslation();
  const unit = item.unit ? ` (${item.unit})` : '';
  const labels = histogramBinLabels(
    item.data.map((p) => p.x),
    i18n.language,
  );
  const data = item.data.map((p, i) => ({ bin: labels[i], count: Math.round(p.y), color: p.color }));
  if (!data.length) return <NoData title={item.label} />;
  return (
    <Stack gap={4} data-testid="result-histogram">
      {item.label && (
        <Text fw={500} size="sm">
          {item.label}
        </Text>
      )}
      <BarChart
        h={260}
        data={data}
        dataKey="bin"
        series={[{ name: 'count', label: item.yLabel ?? 'y', color: 'blue.6' }]}
        xAxisLabel={item.xLabel ? item.xLabel + unit : undefined}
        yAxisLabel={item.yLabel}
        valueFormatter={(v) => formatAxis(v, i18n.language)}
        yAxisProps={{ tickFormatter: (v: number) => formatAxis(v, i18n.language), width: 56, allowDecimals: false }}
        barProps={{ radius: 0 }}
        barChartProps={{ barCategoryGap: 1 }}
        tickLine="y"
      />
    </Stack>
  );
}
