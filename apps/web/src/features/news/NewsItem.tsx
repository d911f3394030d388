import { Anchor, Stack, Text } from '@mantine/core';
import type { UserNews } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { SafeHtml } from '../results/SafeHtml';

/** One news item: title and date; the content unfolds on demand. */
export function NewsItem({ news, initiallyOpen = false }: { news: UserNews; initiallyOpen?: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <Stack gap={4} data-testid="news-item">
      <Anchor
        component="button"
        type="button"
        ta="left"
        fw={500}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        style={{ overflowWrap: 'anywhere' }}
      >
        {news.title}
      </Anchor>
      <Text size="xs" c="dimmed">
        {format.date(news.createdAt)}
      </Text>
      {open ? (
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <SafeHtml html={news.content} />
        </div>
      ) : (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setOpen(true)}>
          {t('news.user.readMore')}
        </Anchor>
      )}
    </Stack>
  );
}
