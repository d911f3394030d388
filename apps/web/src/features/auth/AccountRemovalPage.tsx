import { Alert, Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRunOnce } from '../../lib/useRunOnce';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { clearSession } from './session';

/** The e-mailed link: DELETE /users/me?token=…, success or failure, then the user is logged out. */
export function AccountRemovalPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const removal = useRunOnce(() => (token ? authApi.confirmRemoval(token) : Promise.reject(new Error('no token'))));

  useEffect(() => {
    if (removal.isSuccess || removal.isError) {
      // Log out in either case (spec); the server has already ended the session on success.
      void authApi
        .signout()
        .catch(() => undefined)
        .finally(() => clearSession(qc));
    }
  }, [removal.isSuccess, removal.isError, qc]);

  return (
    <AuthCard title={t('auth.accountRemoval.title')}>
      {(removal.isPending || removal.isIdle) && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('auth.accountRemoval.pending')}</Text>
        </Group>
      )}
      {removal.isSuccess && (
        <Stack gap="sm">
          <Alert color="green">{t('auth.accountRemoval.success')}</Alert>
          <Anchor component={Link} to="/auth/register" size="sm">
            {t('auth.accountRemoval.toRegister')}
          </Anchor>
        </Stack>
      )}
      {removal.isError && (
        <Stack gap="sm">
          <Alert color="red" role="alert">
            {t('auth.accountRemoval.failure')}
          </Alert>
          <Anchor component={Link} to="/auth/login" size="sm">
            {t('auth.verifyEmail.returnToLogin')}
          </Anchor>
        </Stack>
      )}
    </AuthCard>
  );
}
