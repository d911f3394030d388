import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BarChartItem } from '../jobs/types';
import { formatAxis } from '../jobs/format';
import { NoData } from './NoData';

export const PALETTE = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6'];

/** The category key of a bar chart's rows: the first field that is not one of the series. */
export function categoryKey(item: Pick<BarChartItem, 'data' | 'keys'>): string {
  const first = item.data[0] ?? {};
  return Object.keys(first).find((k) => !item.keys.includes(k)) ?? 'x';
}

export const yLabelsOf = (item: BarChartItem): string[] => (Array.isArray(item.yLabels) ? item.yLabels : item.yLabels ? [item.yLabels] : []);

/** A `bar-chart` result item; axis values rounded to 1 decimal. */
export function BarChartView({ item }: { item: BarChartItem }) {
  const { i18n } = useTranslation();
  const key = categoryKey(item);
  const labels = yLabelsOf(item);
  const data = item.data.map((row) => ({ ...row, [key]: formatAxis(row[key], i18n.language) }));
  // series of whole numbers (counts) get integer ticks
  const counts = item.data.every((row) => item.keys.every((k) => Number.isInteger(row[k])));
  if (!data.length) return <NoData title={item.title ?? labels[0]} />;
  return (
    <Stack gap={4} data-testid="result-bar-chart">
      {item.title && (
        <Text fw={500} size="sm">
          {item.title}
        </Text>
      )}
      <BarChart
        h={260}
        data={data}
        dataKey={key}
        series={item.keys.map((k, i) => ({ name: k, label: labels[i] ?? k, color: PALETTE[i % PALETTE.length] }))}
        xAxisLabel={item.xLabel}
        yAxisLabel={labels.length === 1 ? labels[0] : undefined}
        valueFormatter={(v) => formatAxis(v, i18n.language)}
        yAxisProps={{ tickFormatter: (v: number) => formatAxis(v, i18n.language), width: 56, allowDecimals: !counts }}
        withLegend={item.keys.length > 1}
        tickLine="y"
      />
    </Stack>
  );
}
