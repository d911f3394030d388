import { Alert, Button, Card, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconMailForward, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usersApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';

/** Account removal: confirm → DELETE /users/me → "check your e-mail to confirm". */
export function RemovalCard() {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: () => call(usersApi.removeAccount),
    onError: (e) => notifyError(errorText(t, e, 'auth.accountRemoval.failure')),
  });
  return (
    <Card withBorder style={{ borderColor: 'var(--mantine-color-red-3)' }}>
      <Title order={2} size="h4" mb="sm" c="red.8">
        {t('profile.removal.title')}
      </Title>
      {start.isSuccess ? (
        <Alert color="indigo" icon={<IconMailForward />} title={t('profile.removal.mailTitle')}>
          {t('profile.removal.mailText')}
        </Alert>
      ) : (
        <>
          <Text size="sm" mb="sm">
            {t('profile.removal.text')}
          </Text>
          <Button
            color="red"
            variant="outline"
            leftSection={<IconTrash size={16} />}
            loading={start.isPending}
            onClick={() =>
              modals.openConfirmModal({
                title: t('profile.removal.confirmTitle'),
                children: <Text size="sm">{t('profile.removal.confirmText')}</Text>,
                labels: { confirm: t('profile.removal.confirm'), cancel: t('common.cancel') },
                confirmProps: { color: 'red' },
                onConfirm: () => start.mutate(),
              })
            }
          >
            {t('profile.removal.button')}
          </Button>
        </>
      )}
    </Card>
  );
}
