import { Button, Card, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { emailRule, passwordRule, usersApi, type Account } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { applyServerErrors, required, tr } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ME_KEY } from '../auth/session';
import { ACCOUNT_KEY } from './api';

/** E-mail and password: PATCH /users/me/auth {currentPassword, email?, newPassword?}. */
export function AccountForm({ account }: { account: Account }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useForm({
    initialValues: { email: account.email, currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      email: (v) => required(t, 'auth.fields.email')(v) ?? tr(t, emailRule)(v.trim()),
      currentPassword: required(t, 'auth.fields.currentPassword'),
      newPassword: (v) => (v ? tr(t, passwordRule)(v) : null),
      confirmPassword: (v, values) => (v !== values.newPassword ? t('validation.passwordMismatch') : null),
    },
  });
  const save = useMutation({
    mutationFn: (v: typeof form.values) =>
      call(usersApi.updateAuth, {
        body: {
          currentPassword: v.currentPassword,
          ...(v.email.trim() !== account.email ? { email: v.email.trim() } : {}),
          ...(v.newPassword ? { newPassword: v.newPassword } : {}),
        },
      }),
    onSuccess: (res, v) => {
      notifySuccess(res.emailChanged ? t('profile.account.emailChanged') : t('profile.account.saved'), t('profile.updatedTitle'));
      form.setValues({ email: v.email.trim(), currentPassword: '', newPassword: '', confirmPassword: '' });
      form.resetDirty();
      void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
      void qc.invalidateQueries({ queryKey: ME_KEY });
    },
    onError: (e) => {
      applyServerErrors(form, e);
      notifyError(t('profile.errorOccurred', { message: errorText(t, e, 'profile.unknownError') }), t('profile.notUpdatedTitle'));
    },
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('profile.account.title')}
      </Title>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="sm">
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label={t('auth.fields.newPassword')}
            description={t('profile.account.newPasswordHint')}
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput label={t('auth.fields.confirmPassword')} autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
          <PasswordInput
            label={t('auth.fields.currentPassword')}
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('profile.account.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
