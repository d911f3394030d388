import { ActionIcon, Anchor, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useFormat } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useHideInsight, useInsights } from './api';
import { InsightModal } from './InsightModal';

/** The dashboard's insights: titles in the user's language; open one to read it, or hide it until the next reset. */
export function InsightsCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const insights = useInsights();
  const hide = useHideInsight();
  const [open, setOpen] = useState<string | null>(null);
  const rows = insights.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card withBorder padding="md" data-testid="insights-card">
      <Title order={2} size="h4" mb="sm">
        {t('insights.user.heading')}
      </Title>
      <Stack gap="xs">
        {rows.map((row) => (
          <Group key={row.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="insight-item">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor component="button" type="button" ta="left" fw={500} onClick={() => setOpen(row.id)} style={{ overflowWrap: 'anywhere' }}>
                {row.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {format.date(row.createdAt)}
              </Text>
            </Stack>
            <Tooltip label={t('insights.user.hide')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('insights.user.hideLabel', { title: row.title })}
                loading={hide.isPending && hide.variables === row.id}
                onClick={() =>
                  hide.mutate(row.id, {
                    onSuccess: () => notifySuccess(t('insights.user.hidden')),
                    onError: (e) => notifyError(errorText(t, e)),
                  })
                }
                data-testid="insight-hide"
              >
                <IconEyeOff size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
      </Stack>
      {open ? <InsightModal id={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
