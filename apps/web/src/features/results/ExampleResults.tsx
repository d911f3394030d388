import { Card, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { computeModelsApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { orNull } from './orNull';
import { SafeHtml } from './SafeHtml';

/** Example results of the model (rich text per language); nothing when there are none. */
export function ExampleResults({ modelId }: { modelId: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['model-example', modelId],
    queryFn: () => orNull(call(computeModelsApi.userExample, { params: { modelId } })),
    staleTime: 300_000,
  });
  const html = (i18n.language === 'de' ? q.data?.contentDe || q.data?.contentEn : q.data?.contentEn || q.data?.contentDe) ?? '';
  if (!html.trim()) return null;
  return (
    <Card withBorder padding="md" data-testid="example-results">
      <Title order={2} size="h5" mb="xs">
        {t('results.manual.examples')}
      </Title>
      <SafeHtml html={html} />
    </Card>
  );
}
