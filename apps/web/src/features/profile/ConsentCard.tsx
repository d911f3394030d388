import { Card, Checkbox, Modal, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { useSearchParams } from 'react-router';
import { usersApi, type Account } from '@lamella/contracts';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ACCOUNT_KEY } from './api';

/** Training consent: a checkbox (disabled when it cannot be changed); ?allow-training opens a consent dialog. */
export function ConsentCard({ account }: { account: Account }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const dialogOpen = params.has('allow-training') && account.canChangeTrainingConsent && !account.trainingConsent;

  const closeDialog = () => {
    const next = new URLSearchParams(params);
    next.delete('allow-training');
    setParams(next, { replace: true });
  };

  const save = useMutation({
    mutationFn: (trainingConsent: boolean) => call(usersApi.setConsent, { body: { trainingConsent } }),
    onSuccess: (acc) => {
      qc.setQueryData(ACCOUNT_KEY, acc);
      notifySuccess(t('consent.updated'));
    },
    onError: (e) => notifyError(errorText(t, e, 'consent.updateFailed')),
  });

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('consent.cardTitle')}
      </Title>
      <Checkbox
        label={t('consent.label')}
        checked={account.trainingConsent}
        disabled={!account.canChangeTrainingConsent || save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked)}
      />
      {!account.canChangeTrainingConsent && (
        <Text size="xs" c="dimmed" mt={6}>
          {t('consent.locked')}
        </Text>
      )}
      <Modal opened={dialogOpen} onClose={closeDialog} title={t('consent.title')} centered>
        <Text size="sm">{t('consent.promise')}</Text>
        <FormActions
          submitLabel={t('consent.allow')}
          onSubmit={() => save.mutate(true, { onSuccess: closeDialog })}
          onCancel={closeDialog}
          cancelLabel={t('consent.notNow')}
          loading={save.isPending}
        />
      </Modal>
    </Card>
  );
}
