import { Alert, Skeleton, Stack, Text, TypographyStylesProvider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { termsApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { formatDate } from '../../lib/format';

/** The current terms (GET /api/terms/{lng} → HTML and version), sanitised before rendering, with their version and date. */
export function TermsContent() {
  const { t, i18n } = useTranslation();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const terms = useQuery({
    queryKey: ['terms', lng],
    queryFn: () => call(termsApi.current, { params: { lng } }),
    staleTime: 5 * 60_000,
  });
  const html = useMemo(() => (terms.data ? DOMPurify.sanitize(terms.data.content) : ''), [terms.data]);
  if (terms.isPending)
    return (
      <Stack gap="xs" aria-busy>
        <Skeleton h={20} w="60%" />
        <Skeleton h={12} />
        <Skeleton h={12} />
        <Skeleton h={12} w="80%" />
      </Stack>
    );
  if (terms.isError) return <Alert color="red">{t('pages.terms.loadFailed')}</Alert>;
  const { version, publishedAt } = terms.data;
  return (
    <Stack gap="xs">
      {publishedAt ? (
        <Text size="xs" c="dimmed" data-testid="terms-version">
          {t('adminTerms.public.version', { version, date: formatDate(publishedAt, lng) })}
        </Text>
      ) : null}
      <TypographyStylesProvider className="terms-content">
        <div dangerouslySetInnerHTML={{ __html: html }} />
      </TypographyStylesProvider>
    </Stack>
  );
}
