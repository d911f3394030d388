import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The card every auth screen sits in. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', xs: 'xl' }} maw={480} mx="auto" w="100%">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
