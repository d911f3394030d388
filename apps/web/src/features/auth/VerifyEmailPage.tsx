import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconMailOpened } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCountdown } from '../../lib/useCountdown';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { ME_KEY, landingPath, useMe } from './session';

const RESEND_SECONDS = 60;

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <VerifyWithToken token={token} /> : <CheckInbox />;
}

function VerifyWithToken({ token }: { token: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // A query (not an effect) so the one-time token is sent once even under StrictMode double mounting.
  const verify = useQuery({
    queryKey: ['verify-email', token],
    queryFn: async () => {
      const res = await authApi.verifyEmail(token);
      // Read the session anew even where no page watches it: a read started before the verification would
      // otherwise land afterwards and keep the unverified user as fresh (the login page then stays put).
      await qc.invalidateQueries({ queryKey: ME_KEY, refetchType: 'all' });
      return res;
    },
    staleTime: Infinity,
    gcTime: Infinity,
  });

  return (
    <AuthCard title={t('auth.verifyEmail.title')}>
      {verify.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('auth.verifyEmail.pending')}</Text>
        </Group>
      )}
      {verify.isSuccess && (
        <Stack gap="sm">
          <Alert color="green" icon={<IconCircleCheck />} title={t('auth.verifyEmail.successTitle')}>
            {t('auth.verifyEmail.success')}
          </Alert>
          <Button component={Link} to="/auth/login">
            {t('auth.verifyEmail.toLogin')}
          </Button>
        </Stack>
      )}
      {verify.isError && (
        <Stack gap="sm">
          <Alert color="red" title={t('auth.verifyEmail.failureTitle')}>
            {errorText(t, verify.error, 'auth.verifyEmail.failure')}
          </Alert>
          <Text size="sm">
            {t('auth.verifyEmail.contactText')} <Anchor href={`mailto:${t('common.supportEmail')}`}>{t('auth.verifyEmail.contactAdmin')}</Anchor>
          </Text>
          <Anchor component={Link} to="/auth/login" size="sm">
            {t('auth.verifyEmail.returnToLogin')}
          </Anchor>
        </Stack>
      )}
    </AuthCard>
  );
}

function CheckInbox() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const [round, setRound] = useState(0);
  const left = useCountdown(RESEND_SECONDS, round);

  const resend = useMutation({
    mutationFn: authApi.requestVerificationMail,
    onSuccess: (res) => {
      if (res.status === 'EMAIL_ALREADY_VERIFIED_ERROR') {
        notifySuccess(t('auth.verifyEmail.alreadyVerified'));
        void qc.invalidateQueries({ queryKey: ME_KEY });
        return;
      }
      notifySuccess(t('auth.verifyEmail.resent'));
      setRound((r) => r + 1);
    },
    onError: (e) => {
      if (isApiError(e) && e.statusCode === 401) notifyError(t('auth.verifyEmail.signInToResend'));
      else notifyError(errorText(t, e, 'auth.verifyEmail.resendFailed'));
    },
  });

  if (me?.emailVerified) {
    return (
      <AuthCard title={t('auth.verifyEmail.title')}>
        <Alert color="green" icon={<IconCircleCheck />}>
          {t('auth.verifyEmail.alreadyVerified')}
        </Alert>
        <Button onClick={() => navigate(landingPath(me, null))}>{t('auth.verifyEmail.continue')}</Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.verifyEmail.checkInboxTitle')}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconMailOpened size={36} color="var(--mantine-color-indigo-6)" aria-hidden style={{ flexShrink: 0 }} />
        <Text>{me?.email ? t('auth.verifyEmail.checkInboxFor', { email: me.email }) : t('auth.verifyEmail.checkInbox')}</Text>
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite">
        {left > 0 ? (
          t('auth.verifyEmail.resendIn', { seconds: left })
        ) : (
          <>
            {t('auth.verifyEmail.noMail')}{' '}
            <Anchor component="button" type="button" onClick={() => resend.mutate()} disabled={resend.isPending}>
              {t('auth.verifyEmail.resend')}
            </Anchor>
          </>
        )}
      </Text>
      <Group justify="space-between">
        <Anchor component={Link} to="/auth/login" size="sm">
          {t('auth.verifyEmail.returnToLogin')}
        </Anchor>
        {me && (
          <Anchor component={Link} to="/logout" size="sm">
            {t('layout.menu.logout')}
          </Anchor>
        )}
      </Group>
    </AuthCard>
  );
}
