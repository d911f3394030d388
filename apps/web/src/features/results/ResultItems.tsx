import { Card, Code, SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BarChartView } from '../charts/BarChartView';
import { HistogramView } from '../charts/HistogramView';
import { imageUrl } from '../jobs/api';
import type { Job, MessageItem, ResultItem } from '../jobs/types';
import { MessageList } from './MessageList';
import { CalibrationInfo } from './CalibrationInfo';
import { DataTableView } from './DataTableView';
import { Figure } from './Figure';
import { orderResultImages, overlayCaptionKey, resultImageKind } from './resultImage';

/**
 * The result items of a finished job in the order of user-app.md §2: messages, images, charts, tables. `displaySrc`:
 * where the analysed image is read from (a member reviewing a project's job reads it through the project);
 * `readOnly`: no actions that change the job (a member's review).
 */
export function ResultItems({ job, displaySrc, readOnly = false }: { job: Job; displaySrc?: string; readOnly?: boolean }) {
  const { t } = useTranslation();
  const items: ResultItem[] = job.result?.results ?? [];
  const messages = items.filter((i): i is MessageItem => i.type === 'message');
  const resultId = job.result?.id ?? job.resultId;
  const images = orderResultImages(items.filter((i) => i.type === 'image'));
  const charts = items.filter((i) => i.type === 'bar-chart' || i.type === 'histogram');
  const tables = items.filter((i) => i.type === 'data-table');
  const source = displaySrc ?? imageUrl.display(job.imageId);
  return (
    <Stack gap="md">
      <MessageList items={messages} />
      <CalibrationInfo job={job} readOnly={readOnly} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Figure src={source} caption={t('results.panel.sourceImage')} alt={job.image.orginalFilename} />
        {resultId &&
          images.map((i, n) =>
            resultImageKind(i.filename) === 'scale-bar' ? (
              // the bar the lengths were calibrated from, outlined on the part of the image around it (not an overlay of the whole image)
              <div key={n} data-testid="result-image" data-kind="scale-bar">
                <Figure src={imageUrl.result(resultId, i.filename)} caption={t('calibration.barFound.caption')} alt={i.filename} />
              </div>
            ) : (
              <div key={n} data-testid="result-image">
                <Figure
                  src={imageUrl.result(resultId, i.filename)}
                  originalSrc={source}
                  caption={i.title ?? t(overlayCaptionKey(i.filename))}
                  alt={i.filename}
                />
              </div>
            ),
          )}
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
