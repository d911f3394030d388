import { Anchor, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Me } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCountdown } from '../../lib/useCountdown';
import { useRunOnce } from '../../lib/useRunOnce';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { ME_KEY, clearSession } from './session';

const LOGOUT_SECONDS = 5;

/**
 * POST /auth/signout (or, with `?everywhere=1`, POST /users/me/force-logout: every session on every device),
 * then a 5 s countdown and on to /. Signing out while an admin acts as a user ends only the impersonation: the
 * server puts the admin's own session back, so the admin goes straight back to the users list.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const everywhere = params.get('everywhere') === '1';
  const [impersonating] = useState(() => !everywhere && Boolean(qc.getQueryData<Me | null>(ME_KEY)?.impersonatedBy));
  const signout = useRunOnce(async () => {
    try {
      await (everywhere ? authApi.forceLogout() : authApi.signout());
    } catch {
      // already signed out: nothing to do
    }
    return true;
  });
  const done = signout.isSuccess;
  const left = useCountdown(LOGOUT_SECONDS, done);

  useEffect(() => {
    if (!done) return;
    if (impersonating) {
      qc.clear();
      notifications.show({ message: t('impersonation.ended') });
      navigate('/admin/users', { replace: true });
    } else clearSession(qc);
  }, [done, qc, impersonating, navigate, t]);

  useEffect(() => {
    if (done && !impersonating && left === 0) navigate('/', { replace: true });
  }, [done, left, navigate, impersonating]);

  return (
    <AuthCard title={t('auth.logout.title')}>
      {!done ? (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>{t('auth.logout.pending')}</Text>
        </Group>
      ) : (
        <>
          <Text>{t('auth.logout.done')}</Text>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('auth.logout.redirectIn', { seconds: left })}{' '}
            <Anchor component={Link} to="/auth/login">
              {t('auth.logout.loginNow')}
            </Anchor>
          </Text>
        </>
      )}
    </AuthCard>
  );
}
