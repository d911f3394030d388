import { Badge, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AdminUserProfile } from '@lamella/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

const ADDRESS_FIELDS = ['company', 'address', 'postalCode', 'city', 'country', 'taxNumber', 'phone'] as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Profile fields and address (back-office.md §3 "User profile"), read-only: changes go through the action menu. */
export function ProfileTab({ profile }: { profile: AdminUserProfile }) {
  const { t } = useTranslation();
  const yesNo = (v: boolean) => (v ? t('common.yes') : t('common.no'));
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          {t('adminUsers.profile.account')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Field label={t('adminUsers.profile.name')}>{profile.name || '—'}</Field>
          <Field label={t('adminUsers.profile.surname')}>{profile.surname || '—'}</Field>
          <Field label={t('adminUsers.columns.email')}>{profile.email}</Field>
          <Field label={t('adminUsers.columns.role')}>
            <Badge variant="light">{t(`adminUsers.roles.${profile.role}`)}</Badge>
          </Field>
          <Field label={t('adminUsers.columns.timeJoined')}>{formatAdminDateTime(profile.timeJoined)}</Field>
          <Field label={t('adminUsers.columns.lastLogin')}>{formatAdminDateTime(profile.lastLogin)}</Field>
          <Field label={t('adminUsers.profile.verified')}>{yesNo(profile.verified)}</Field>
          <Field label={t('adminUsers.columns.trainingConsent')}>{yesNo(profile.trainingConsent)}</Field>
          <Field label={t('adminUsers.tags.removeDataPermanently')}>{yesNo(profile.removeDataPermanently)}</Field>
        </SimpleGrid>
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          {t('adminUsers.profile.address')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {ADDRESS_FIELDS.map((f) => (
            <Field key={f} label={t(`adminUsers.address.${f}`)}>
              {profile.address[f] || '—'}
            </Field>
          ))}
        </SimpleGrid>
      </Card>
    </SimpleGrid>
  );
}
