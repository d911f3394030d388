import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { IconMailForward } from '@tabler/icons-react';
import { emailRule, passwordRule } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { applyServerErrors, required, tr } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { AuthCard } from './AuthCard';
import { authApi } from './api';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <SetNewPassword token={token} /> : <RequestReset />;
}

function RequestReset() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '' },
    // Spec: the reset screen shows "Invalid email" (auth.emailInvalid).
    validate: { email: (v) => tr(t, emailRule)(v.trim()) },
  });
  const request = useMutation({
    mutationFn: (email: string) => authApi.requestPasswordReset(email),
    onSuccess: (_, email) => setSentTo(email),
    onError: (e) => notifyError(errorText(t, e, 'auth.resetPassword.requestFailed')),
  });

  if (sentTo) {
    return (
      <AuthCard title={t('auth.resetPassword.sentTitle')}>
        <Alert color="indigo" icon={<IconMailForward />}>
          {t('auth.resetPassword.sent', { email: sentTo })}
        </Alert>
        <Anchor component={Link} to="/auth/login" size="sm">
          {t('auth.verifyEmail.returnToLogin')}
        </Anchor>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.resetPassword.title')} subtitle={t('auth.resetPassword.subtitle')}>
      <form onSubmit={form.onSubmit((v) => request.mutate(v.email.trim()))} noValidate>
        <Stack gap="sm">
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <Button type="submit" loading={request.isPending} fullWidth>
            {t('auth.resetPassword.requestSubmit')}
          </Button>
          <Anchor component={Link} to="/auth/login" size="sm" ta="center">
            {t('auth.verifyEmail.returnToLogin')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}

function SetNewPassword({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: (v) => required(t, 'auth.fields.newPassword')(v) ?? tr(t, passwordRule)(v),
      confirmPassword: (v, values) => (v !== values.password ? t('validation.passwordMismatch') : null),
    },
  });
  const reset = useMutation({
    mutationFn: (password: string) => authApi.resetPassword(token, password),
    onSuccess: () => {
      notifySuccess(t('auth.resetPassword.done'), t('auth.resetPassword.doneTitle'));
      navigate('/auth/login', { replace: true });
    },
    onError: (e) => {
      const onFields = applyServerErrors(form, e);
      if (isApiError(e) && e.code === 'INVALID_TOKEN') {
        notifyError(e.message || t('auth.resetPassword.tokenError'), t('auth.resetPassword.failedTitle'));
      } else if (!onFields) {
        notifyError(errorText(t, e, 'auth.resetPassword.tokenError'), t('auth.resetPassword.failedTitle'));
      }
    },
  });

  return (
    <AuthCard title={t('auth.resetPassword.newTitle')}>
      <form onSubmit={form.onSubmit((v) => reset.mutate(v.password))} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={t('auth.fields.newPassword')}
            description={t('auth.fields.passwordHint')}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordInput label={t('auth.fields.confirmPassword')} autoComplete="new-password" required {...form.getInputProps('confirmPassword')} />
          <Button type="submit" loading={reset.isPending} fullWidth>
            {t('auth.resetPassword.submit')}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/auth/reset-password">
              {t('auth.resetPassword.requestNewLink')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
