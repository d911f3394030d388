import { Badge, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { GroupLicense } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';

/** The group licence (FLOATING reads "Group") and how much of it the members used. */
export function LicenseCard({ license }: { license: GroupLicense | null }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Paper withBorder p="md" data-testid="group-license">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('groupAdmin.license.title')}
        </Title>
        {license ? (
          <>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t('groupAdmin.license.type')}
              </Text>
              <Badge variant="light">{t(`adminUsers.licenseTypes.${license.type}`, { defaultValue: license.type })}</Badge>
            </Group>
            {license.images !== null ? (
              <>
                <Text size="sm">{t('groupAdmin.license.used', { used: license.used, images: license.images })}</Text>
                <Progress value={license.images > 0 ? Math.min(100, (license.used / license.images) * 100) : 100} aria-hidden />
              </>
            ) : (
              <Text size="sm">{t('groupAdmin.license.usedNoLimit', { used: license.used })}</Text>
            )}
            <Text size="sm" c="dimmed">
              {license.finishAt ? t('groupAdmin.license.until', { date: fmt.date(license.finishAt) }) : t('groupAdmin.license.noEnd')}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('groupAdmin.license.none')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
