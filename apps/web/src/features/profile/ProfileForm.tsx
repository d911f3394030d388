import { Button, Card, Checkbox, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { phoneRule, usersApi, withoutBlankValues, type Account } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { applyServerErrors, required } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ME_KEY } from '../auth/session';
import { ACCOUNT_KEY } from './api';

function valuesOf(a: Account) {
  return {
    name: a.name ?? '',
    surname: a.surname ?? '',
    company: a.address?.company ?? '',
    address: a.address?.address ?? '',
    city: a.address?.city ?? '',
    postalCode: a.address?.postalCode ?? '',
    country: a.address?.country ?? '',
    taxNumber: a.address?.taxNumber ?? '',
    phone: a.address?.phone ?? '',
    csvDecimalSeparator: a.csvDecimalSeparator ?? 'comma',
    subscribe: a.subscribe,
  };
}
type Values = ReturnType<typeof valuesOf>;

/** Profile data: PATCH /users/me with blank values removed (accounts.md §5). */
export function ProfileForm({ account }: { account: Account }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useForm<Values>({
    initialValues: valuesOf(account),
    validate: {
      name: required(t, 'auth.fields.name'),
      surname: required(t, 'auth.fields.surname'),
      country: required(t, 'profile.fields.country'),
      phone: (v) => {
        const key = phoneRule(v);
        return key ? t(key) : null;
      },
    },
  });
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = withoutBlankValues({
        name: v.name,
        surname: v.surname,
        subscribe: v.subscribe,
        csvDecimalSeparator: v.csvDecimalSeparator,
        address: {
          company: v.company,
          address: v.address,
          city: v.city,
          postalCode: v.postalCode,
          country: v.country,
          taxNumber: v.taxNumber,
          phone: v.phone,
        },
      });
      return call(usersApi.updateProfile, { body });
    },
    onSuccess: (acc) => {
      notifySuccess(t('profile.updated'), t('profile.updatedTitle'));
      qc.setQueryData(ACCOUNT_KEY, acc);
      form.setInitialValues(valuesOf(acc));
      form.resetDirty(valuesOf(acc));
      void qc.invalidateQueries({ queryKey: ME_KEY });
    },
    onError: (e) => {
      applyServerErrors(form, e, {
        'address.company': 'company',
        'address.address': 'address',
        'address.city': 'city',
        'address.postalCode': 'postalCode',
        'address.country': 'country',
        'address.taxNumber': 'taxNumber',
        'address.phone': 'phone',
      });
      notifyError(t('profile.errorOccurred', { message: errorText(t, e, 'profile.unknownError') }), t('profile.notUpdatedTitle'));
    },
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('profile.details.title')}
      </Title>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label={t('auth.fields.name')} autoComplete="given-name" required {...form.getInputProps('name')} />
            <TextInput label={t('auth.fields.surname')} autoComplete="family-name" required {...form.getInputProps('surname')} />
          </SimpleGrid>
          <TextInput label={t('auth.fields.company')} autoComplete="organization" {...form.getInputProps('company')} />
          <TextInput label={t('profile.fields.address')} autoComplete="street-address" {...form.getInputProps('address')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label={t('profile.fields.postalCode')} autoComplete="postal-code" {...form.getInputProps('postalCode')} />
            <TextInput label={t('profile.fields.city')} autoComplete="address-level2" {...form.getInputProps('city')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label={t('profile.fields.country')} autoComplete="country-name" required {...form.getInputProps('country')} />
            <TextInput label={t('profile.fields.taxNumber')} {...form.getInputProps('taxNumber')} />
          </SimpleGrid>
          <TextInput
            label={t('auth.fields.phone')}
            type="tel"
            autoComplete="tel"
            placeholder={t('auth.fields.phonePlaceholder')}
            {...form.getInputProps('phone')}
          />
          <div>
            <Text size="sm" fw={500} mb={4} id="csv-sep-label">
              {t('profile.fields.csvDecimalSeparator')}
            </Text>
            <SegmentedControl
              aria-labelledby="csv-sep-label"
              data={[
                { value: 'comma', label: t('profile.fields.comma') },
                { value: 'dot', label: t('profile.fields.dot') },
              ]}
              {...form.getInputProps('csvDecimalSeparator')}
            />
          </div>
          <Checkbox label={t('profile.fields.subscribe')} {...form.getInputProps('subscribe', { type: 'checkbox' })} />
          {account.group && (
            <Text size="sm" c="dimmed">
              {t('profile.fields.group', { name: account.group.name })}
            </Text>
          )}
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('profile.details.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
