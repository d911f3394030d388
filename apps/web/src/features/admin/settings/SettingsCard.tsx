import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  description?: string;
  /** Right of the title (a status badge, a button). */
  aside?: ReactNode;
  testId: string;
  children: ReactNode;
}

/** One card of the Settings screen's grid. */
export function SettingsCard({ title, description, aside, testId, children }: Props) {
  return (
    <Card withBorder padding="lg" radius="md" data-testid={testId} h="100%">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h4">
              {title}
            </Title>
            {description ? (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            ) : null}
          </div>
          {aside ? <div style={{ flexShrink: 0 }}>{aside}</div> : null}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
