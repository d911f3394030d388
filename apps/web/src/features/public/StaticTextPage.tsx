import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Imprint and licenses: static texts from the translations (a title and a list of paragraphs). */
export function StaticTextPage({ page }: { page: 'imprint' | 'licenses' }) {
  const { t } = useTranslation();
  // An object of paragraphs (not an array: translation trees are merged key by key on the server).
  const tree = t(`pages.${page}.paragraphs`, { returnObjects: true }) as unknown;
  const paragraphs = tree && typeof tree === 'object' ? Object.values(tree as Record<string, unknown>) : [];
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Title order={1} size="h2" mb="md">
        {t(`pages.${page}.title`)}
      </Title>
      <Stack gap="sm">
        {paragraphs.map((p, i) => (
          <Text key={i} style={{ whiteSpace: 'pre-line' }}>
            {String(p)}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
