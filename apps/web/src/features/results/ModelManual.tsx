import { Card, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { computeModelsApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { orNull } from './orNull';
import { SafeHtml } from './SafeHtml';

/** The model's user manual at the TOP (Model info) or BOTTOM (Result info); nothing when there is none. */
export function ModelManual({ modelId, position }: { modelId: string; position: 'TOP' | 'BOTTOM' }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const q = useQuery({
    queryKey: ['model-manual', modelId, position, lng],
    queryFn: () => orNull(call(computeModelsApi.userManual, { params: { modelId, position, language: lng } })),
    staleTime: 300_000,
  });
  const html = q.data?.text ?? '';
  if (!html.trim()) return null;
  return (
    <Card withBorder padding="md" data-testid={`manual-${position}`}>
      <Title order={2} size="h5" mb="xs">
        {position === 'TOP' ? t('results.manual.top') : t('results.manual.bottom')}
      </Title>
      <SafeHtml html={html} />
    </Card>
  );
}
