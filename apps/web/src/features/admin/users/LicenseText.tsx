import { Stack, Text } from '@mantine/core';
import type { AdminLicense } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

/** A license with type, limits (images, used, end) and who created it (back-office.md §3, §4). */
export function LicenseText({ license }: { license: AdminLicense | null }) {
  const { t } = useTranslation();
  if (!license) return <Text size="sm">{t('adminUsers.license.none')}</Text>;
  const { images, used, finish } = license.limits;
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {t(`adminUsers.licenseTypes.${license.type}`, { defaultValue: license.type })}
      </Text>
      <Text size="xs" c="dimmed">
        {images !== null ? t('adminUsers.license.images', { used, images }) : t('adminUsers.license.used', { used })}
        {finish ? ` · ${t('adminUsers.license.until', { date: formatAdminDateTime(finish) })}` : ''}
      </Text>
      <Text size="xs" c="dimmed">
        {t('adminUsers.license.createdBy', { by: t(`adminUsers.createdBy.${license.createdBy}`, { defaultValue: license.createdBy }) })}
      </Text>
    </Stack>
  );
}
