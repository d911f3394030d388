import { Button, Group, Modal, ScrollArea, Stack, Text, TypographyStylesProvider } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { termsApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { formatDate } from '../../lib/format';
import { notifyError } from '../../lib/notify';

/**
 * Blocks the signed-in app while the user has not accepted the current terms (issue 11 item 5): shows the new text
 * with Accept (and Log out). Mounted once in AppLayout, so it appears right after sign-in.
 */
export function TermsAcceptanceModal() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const lng = i18n.language === 'de' ? 'de' : 'en';
  const pending = useQuery({ queryKey: ['terms-pending', lng], queryFn: () => call(termsApi.pending), staleTime: 5 * 60_000 });
  const terms = pending.data?.pending ? pending.data.terms : null;
  const html = useMemo(() => (terms ? DOMPurify.sanitize(terms.content) : ''), [terms]);
  const accept = useMutation({
    mutationFn: (version: number) => call(termsApi.accept, { body: { version } }),
    onSuccess: async (answer) => {
      qc.setQueryData(['terms-pending', lng], answer);
      await qc.invalidateQueries({ queryKey: ['terms-pending'] });
    },
    onError: async (e) => {
      notifyError(errorText(t, e, 'adminTerms.pending.acceptFailed'));
      // A newer version was published meanwhile: show it.
      await qc.invalidateQueries({ queryKey: ['terms-pending'] });
    },
  });
  if (!terms) return null;
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      size="lg"
      title={t('adminTerms.pending.title')}
      data-testid="terms-acceptance"
    >
      <Stack gap="sm">
        <Text size="sm">{t('adminTerms.pending.intro')}</Text>
        {terms.publishedAt ? (
          <Text size="xs" c="dimmed">
            {t('adminTerms.pending.version', { version: terms.version, date: formatDate(terms.publishedAt, lng) })}
          </Text>
        ) : null}
        <ScrollArea.Autosize mah="50vh" type="auto" offsetScrollbars>
          <TypographyStylesProvider className="terms-content">
            <div dangerouslySetInnerHTML={{ __html: html }} />
          </TypographyStylesProvider>
        </ScrollArea.Autosize>
        <Group justify="flex-end" gap="xs">
          <Button component={Link} to="/logout" variant="default">
            {t('adminTerms.pending.logout')}
          </Button>
          <Button onClick={() => accept.mutate(terms.version)} loading={accept.isPending} data-testid="terms-accept" data-autofocus>
            {t('adminTerms.pending.accept')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
