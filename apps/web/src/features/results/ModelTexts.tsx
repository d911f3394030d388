import { Card, Title, TypographyStylesProvider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client';

type Manual = string | { content?: string; text?: string; html?: string } | null;

const textOf = (m: Manual) => (typeof m === 'string' ? m : (m?.content ?? m?.html ?? m?.text ?? ''));

async function getOrNull<T>(path: string): Promise<T | null> {
  try {
    return await api.get<T>(path);
  } catch (e) {
    if (isApiError(e) && (e.statusCode === 404 || e.statusCode === 405)) return null;
    throw e;
  }
}

function Html({ html }: { html: string }) {
  return (
    <TypographyStylesProvider>
      <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />
    </TypographyStylesProvider>
  );
}

/** The model's user manual at the TOP (Model info) or BOTTOM (Result info); nothing when there is none. */
export function ModelManual({ modelId, position }: { modelId: string; position: 'TOP' | 'BOTTOM' }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const q = useQuery({
    queryKey: ['model-manual', modelId, position, lng],
    queryFn: () => getOrNull<Manual>(`/models/${modelId}/manual/${position}/${lng}`),
    staleTime: 300_000,
  });
  const html = q.data ? textOf(q.data) : '';
  if (!html.trim()) return null;
  return (
    <Card withBorder padding="md" data-testid={`manual-${position}`}>
      <Title order={2} size="h5" mb="xs">
        {position === 'TOP' ? t('results.manual.top') : t('results.manual.bottom')}
      </Title>
      <Html html={html} />
    </Card>
  );
}

/** Example results of the model (rich text per language); nothing when there are none. */
export function ExampleResults({ modelId }: { modelId: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['model-example', modelId],
    queryFn: () => getOrNull<{ contentEn?: string | null; contentDe?: string | null }>(`/models/${modelId}/example`),
    staleTime: 300_000,
  });
  const html = (i18n.language === 'de' ? q.data?.contentDe || q.data?.contentEn : q.data?.contentEn || q.data?.contentDe) ?? '';
  if (!html.trim()) return null;
  return (
    <Card withBorder padding="md" data-testid="example-results">
      <Title order={2} size="h5" mb="xs">
        {t('results.manual.examples')}
      </Title>
      <Html html={html} />
    </Card>
  );
}
