import { Card, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNews } from './api';
import { NewsItem } from './NewsItem';

/**
 * News for the user: general news on the dashboard (no `modelId`), or one model's news on its results page.
 * Shows nothing when there is none.
 */
export function NewsCard({ modelId }: { modelId?: string }) {
  const { t } = useTranslation();
  const news = useNews(modelId);
  const rows = news.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card withBorder padding="md" data-testid={modelId ? 'model-news' : 'news-card'}>
      <Title order={2} size="h4" mb="sm">
        {modelId ? t('news.user.modelHeading') : t('news.user.heading')}
      </Title>
      <Stack gap="md">
        {rows.map((row, i) => (
          <NewsItem key={row.id} news={row} initiallyOpen={i === 0} />
        ))}
      </Stack>
    </Card>
  );
}
