import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The empty state of a chart item. */
export function NoData({ title }: { title?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      {title && (
        <Text fw={500} size="sm">
          {title}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('results.panel.noData')}
      </Text>
    </Stack>
  );
}
