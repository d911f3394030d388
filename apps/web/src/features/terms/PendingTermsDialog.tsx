import { Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { termsApi, type PendingTerms } from '@lamella/contracts';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { formatDate } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import { SafeHtml } from '../results/SafeHtml';

type Terms = NonNullable<PendingTerms['terms']>;

/**
 * The terms the user has not accepted yet, with Accept (and Log out): TermsAcceptanceModal loads it only when there are
 * such terms, and SafeHtml loads DOMPurify when it first shows rich text, so the app's first load does without both.
 */
export function PendingTermsDialog({ terms, lng }: { terms: Terms; lng: 'en' | 'de' }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
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
          <SafeHtml html={terms.content} className="terms-content" />
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
