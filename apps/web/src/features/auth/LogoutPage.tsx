import { Anchor, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCountdown } from '../../lib/useCountdown';
import { useRunOnce } from '../../lib/useRunOnce';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { clearSession } from './session';

const LOGOUT_SECONDS = 5;

/**
 * POST /auth/signout (or, with `?everywhere=1`, POST /users/me/force-logout: every session on every device),
 * then a 5 s countdown and on to /.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const everywhere = params.get('everywhere') === '1';
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
    if (done) {
      clearSession(qc);
    }
  }, [done, qc]);

  useEffect(() => {
    if (done && left === 0) navigate('/', { replace: true });
  }, [done, left, navigate]);

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
