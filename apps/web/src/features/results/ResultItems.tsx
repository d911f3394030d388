import { Alert, Anchor, Card, Code, Image, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BarChartView, HistogramView } from '../charts/ResultCharts';
import { imageUrl } from '../jobs/api';
import { formatTableValue } from '../jobs/format';
import type { DataTableItem, Job, MessageItem, ResultItem } from '../jobs/types';

const MESSAGE_STYLE = {
  info: { color: 'blue', icon: <IconInfoCircle size={18} /> },
  warning: { color: 'yellow', icon: <IconAlertTriangle size={18} /> },
  error: { color: 'red', icon: <IconX size={18} /> },
} as const;

export function MessageList({ items }: { items: MessageItem[] }) {
  if (!items.length) return null;
  return (
    <Stack gap="xs" data-testid="result-messages">
      {items.map((m, i) => {
        const s = MESSAGE_STYLE[m.status] ?? MESSAGE_STYLE.info;
        return (
          <Alert key={i} color={s.color} icon={s.icon} title={m.title} variant="light">
            {m.content}
          </Alert>
        );
      })}
    </Stack>
  );
}

export function DataTableView({ item }: { item: DataTableItem }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table striped withTableBorder data-testid="result-table" aria-label={item.title ?? t('results.panel.table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('results.panel.measurement')}</Table.Th>
            <Table.Th ta="right">{t('results.panel.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {item.rows.map((r, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                {r.labelTooltip ? (
                  <Tooltip label={r.labelTooltip} multiline maw={320} withArrow>
                    <Text size="sm" span style={{ textDecoration: 'underline dotted', cursor: 'help' }} tabIndex={0}>
                      {r.label}
                    </Text>
                  </Tooltip>
                ) : (
                  r.label
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {formatTableValue(r.value, i18n.language)}
                {r.unit ? ` ${r.unit}` : ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Figure({ src, caption, alt }: { src: string; caption: string; alt: string }) {
  return (
    <Card withBorder padding={4} component="figure" m={0}>
      <Anchor href={src} target="_blank" rel="noreferrer">
        <Image src={src} alt={alt} loading="lazy" fit="contain" mah={420} />
      </Anchor>
      <Text component="figcaption" size="xs" c="dimmed" ta="center" mt={4}>
        {caption}
      </Text>
    </Card>
  );
}

/** The result items of a finished job in the order of user-app.md §2: messages, images, charts, tables. */
export function ResultItems({ job }: { job: Job }) {
  const { t } = useTranslation();
  const items: ResultItem[] = job.result?.results ?? [];
  const messages = items.filter((i): i is MessageItem => i.type === 'message');
  const resultId = job.result?.id ?? job.resultId;
  const images = items.filter((i) => i.type === 'image');
  const charts = items.filter((i) => i.type === 'bar-chart' || i.type === 'histogram');
  const tables = items.filter((i) => i.type === 'data-table');
  return (
    <Stack gap="md">
      <MessageList items={messages} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Figure src={imageUrl.display(job.imageId)} caption={t('results.panel.sourceImage')} alt={job.image.orginalFilename} />
        {resultId &&
          images.map((i, n) => (
            <div key={n} data-testid="result-image">
              <Figure src={imageUrl.result(resultId, i.filename)} caption={i.title ?? t('results.panel.resultImage')} alt={i.filename} />
            </div>
          ))}
      </SimpleGrid>
      {charts.length > 0 && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {charts.map((c, n) => (
            <Card withBorder key={n} padding="sm">
              {c.type === 'bar-chart' ? <BarChartView item={c} /> : c.type === 'histogram' ? <HistogramView item={c} /> : null}
            </Card>
          ))}
        </SimpleGrid>
      )}
      {tables.map((tb, n) => (tb.type === 'data-table' ? <DataTableView key={n} item={tb} /> : null))}
      {job.source === 'IDENTIFICATION' && job.customization && (
        <div>
          <Title order={4} size="h6" mb={4}>
            {t('results.panel.runtimeConfig')}
          </Title>
          <Code block data-testid="runtime-config" style={{ maxHeight: 240, overflow: 'auto' }}>
            {JSON.stringify(job.customization.config, null, 2)}
          </Code>
        </div>
      )}
    </Stack>
  );
}
