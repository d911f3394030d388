import { Anchor, Button, Checkbox, Group, Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { emailRule, passwordRule, phoneRule } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { Link, useNavigate } from 'react-router';
import { applyServerErrors, required, tr } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { TermsContent } from '../public/TermsContent';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { useSetMe } from './session';

const initialValues = {
  name: '',
  surname: '',
  company: '',
  email: '',
  phone: '',
  password: '',
  confirmPassword: '',
  subscribe: false,
  trainingConsent: false,
  terms: false,
};
type Values = typeof initialValues;

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [termsOpen, terms] = useDisclosure(false);
  const [reminderOpen, reminder] = useDisclosure(false);

  const form = useForm<Values>({
    initialValues,
    validate: {
      name: required(t, 'auth.fields.name'),
      surname: required(t, 'auth.fields.surname'),
      company: required(t, 'auth.fields.company'),
      email: (v) => required(t, 'auth.fields.email')(v) ?? tr(t, emailRule)(v.trim()),
      phone: (v) => {
        const key = phoneRule(v);
        return key ? t(key) : null;
      },
      password: (v) => required(t, 'auth.fields.password')(v) ?? tr(t, passwordRule)(v),
      confirmPassword: (v, values) => (v !== values.password ? t('validation.passwordMismatch') : null),
      terms: (v) => (v ? null : t('validation.termsRequired')),
    },
  });

  const signup = useMutation({
    mutationFn: (v: Values) =>
      authApi.signup({
        email: v.email.trim(),
        password: v.password,
        name: v.name.trim(),
        surname: v.surname.trim(),
        company: v.company.trim(),
        phone: v.phone.trim(),
        subscribe: v.subscribe,
        trainingConsent: v.trainingConsent,
      }),
    onSuccess: ({ user }) => {
      setMe(user);
      navigate('/auth/verify-email', { replace: true });
    },
    onError: (e) => {
      applyServerErrors(form, e);
      notifyError(errorText(t, e, 'auth.register.failed'), t('auth.register.failedTitle'));
    },
  });

  const submit = (v: Values) => {
    // The reminder modal promises 2 extra trial months when the user allows training on their images.
    if (!v.trainingConsent) reminder.open();
    else signup.mutate(v);
  };

  const decide = (allow: boolean) => {
    reminder.close();
    if (allow) form.setFieldValue('trainingConsent', true);
    signup.mutate({ ...form.getValues(), trainingConsent: allow });
  };

  return (
    <AuthCard title={t('auth.register.title')} subtitle={t('auth.register.subtitle')}>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label={t('auth.fields.name')} autoComplete="given-name" required {...form.getInputProps('name')} />
            <TextInput label={t('auth.fields.surname')} autoComplete="family-name" required {...form.getInputProps('surname')} />
          </SimpleGrid>
          <TextInput label={t('auth.fields.company')} autoComplete="organization" required {...form.getInputProps('company')} />
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <TextInput
            label={t('auth.fields.phone')}
            type="tel"
            autoComplete="tel"
            placeholder={t('auth.fields.phonePlaceholder')}
            {...form.getInputProps('phone')}
          />
          <PasswordInput
            label={t('auth.fields.password')}
            description={t('auth.fields.passwordHint')}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordInput label={t('auth.fields.confirmPassword')} autoComplete="new-password" required {...form.getInputProps('confirmPassword')} />
          <Checkbox label={t('auth.register.subscribe')} {...form.getInputProps('subscribe', { type: 'checkbox' })} />
          <Checkbox label={t('auth.register.trainingConsent')} {...form.getInputProps('trainingConsent', { type: 'checkbox' })} />
          <Checkbox
            label={
              <>
                {t('auth.register.acceptTerms')}{' '}
                <Anchor component="button" type="button" size="sm" onClick={terms.open}>
                  {t('auth.register.termsLink')}
                </Anchor>
              </>
            }
            {...form.getInputProps('terms', { type: 'checkbox' })}
          />
          <Button type="submit" loading={signup.isPending} fullWidth mt="xs">
            {t('auth.register.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.register.haveAccount')}{' '}
            <Anchor component={Link} to="/auth/login">
              {t('auth.register.loginLink')}
            </Anchor>
          </Text>
        </Stack>
      </form>

      <Modal opened={termsOpen} onClose={terms.close} title={t('auth.register.termsTitle')} size="lg">
        <TermsContent />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={terms.close}>
            {t('common.close')}
          </Button>
          <Button
            onClick={() => {
              form.setFieldValue('terms', true);
              terms.close();
            }}
          >
            {t('auth.register.acceptTermsButton')}
          </Button>
        </Group>
      </Modal>

      <Modal opened={reminderOpen} onClose={reminder.close} title={t('consent.title')} centered>
        <Text size="sm">{t('consent.promise')}</Text>
        <FormActions
          submitLabel={t('consent.allowAndRegister')}
          onSubmit={() => decide(true)}
          onCancel={() => decide(false)}
          cancelLabel={t('consent.registerWithout')}
        />
      </Modal>
    </AuthCard>
  );
}
