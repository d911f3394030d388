import { Alert, Skeleton, Stack, TypographyStylesProvider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { systemApi } from '@lamella/contracts';
import { call } from '../../api/client';

/** The terms text (GET /api/terms/{lng} → {content} HTML), sanitised before rendering. */
export function TermsContent() {
  const { t, i18n } = useTranslation();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const terms = useQuery({
    queryKey: ['terms', lng],
    queryFn: () => call(systemApi.terms, { params: { lng } }),
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
  return (
    <TypographyStylesProvider className="terms-content">
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </TypographyStylesProvider>
  );
}
