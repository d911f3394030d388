import { Card, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface StatOption {
  value: string;
  label: string;
}

/**
 * One dashboard card: a title, a switch between the card's figures and the chosen figure. `figure(choice)`
 * answers the text to show; while loading a spinner, on error a short text.
 */
export function StatCard({
  title,
  options,
  figure,
  pending,
  failed,
  extra,
  testId,
}: {
  title: string;
  options: StatOption[];
  figure: (choice: string) => string;
  pending: boolean;
  failed: boolean;
  extra?: (choice: string) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState(options[0]?.value ?? '');
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId}>
      <Stack gap="xs">
        <Text fw={600} size="sm" c="dimmed">
          {title}
        </Text>
        {options.length > 1 ? <SegmentedControl size="xs" fullWidth data={options} value={choice} onChange={setChoice} aria-label={title} /> : null}
        <Group gap="xs" align="baseline" wrap="wrap">
          {pending ? (
            <Loader size="sm" aria-label={t('adminDashboard.loading')} />
          ) : failed ? (
            <Text c="red" size="sm">
              {t('adminDashboard.failed')}
            </Text>
          ) : (
            <Text fz={28} fw={700} data-testid={`${testId}-value`}>
              {figure(choice)}
            </Text>
          )}
          {!pending && !failed && extra ? extra(choice) : null}
        </Group>
      </Stack>
    </Card>
  );
}
