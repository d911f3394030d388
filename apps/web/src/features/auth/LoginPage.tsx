import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { emailRule } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { applyServerErrors, required, tr } from '../../lib/forms';
import { notifyError } from '../../lib/notify';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { landingPath, safeRedirect, useSetMe } from './session';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));

  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => required(t, 'auth.fields.email')(v) ?? tr(t, emailRule)(v.trim()),
      password: required(t, 'auth.fields.password'),
    },
  });

  const signin = useMutation({
    mutationFn: (v: typeof form.values) => authApi.signin(v.email.trim(), v.password),
    onSuccess: ({ user, twoFactorRequired }) => {
      setMe(user);
      if (twoFactorRequired || user.twoFactorPending) {
        navigate(redirect ? `/auth/otp?redirect=${encodeURIComponent(redirect)}` : '/auth/otp');
      } else {
        navigate(landingPath(user, redirect), { replace: true });
      }
    },
    onError: (e) => {
      if (isApiError(e) && e.statusCode === 403) {
        notifyError(e.message || t('auth.loginDenied'), t('auth.login.failedTitle'));
        return;
      }
      applyServerErrors(form, e);
      // Generic sign-in error; the server's text (e.g. wrong e-mail or password) is more helpful when present.
      const detail = isApiError(e) && e.statusCode > 0 && e.statusCode < 500 ? e.message : '';
      notifyError(detail || t('auth.login.failed'), t('auth.login.failedTitle'));
    },
  });

  return (
    <AuthCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <form onSubmit={form.onSubmit((v) => signin.mutate(v))} noValidate>
        <Stack gap="sm">
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput label={t('auth.fields.password')} autoComplete="current-password" required {...form.getInputProps('password')} />
          <Group justify="flex-end">
            <Anchor component={Link} to="/auth/reset-password" size="sm">
              {t('auth.login.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" loading={signin.isPending} fullWidth>
            {t('auth.login.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.login.noAccount')}{' '}
            <Anchor component={Link} to={{ pathname: '/auth/register', search: params.toString() ? `?${params}` : '' }}>
              {t('auth.login.registerLink')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
