import { Button, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconRefresh } from '@tabler/icons-react';
import { healthServices } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { HEALTHCHECK_KEY } from './api';
import { ServiceRow } from './ServiceRow';
import { SettingsCard } from './SettingsCard';

/** Services status (back-office.md §7 GET /admin/healthcheck/{service}): one row per service, each re-checkable. */
export function ServicesCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <SettingsCard
      title={t('adminSettings.services.title')}
      description={t('adminSettings.services.description')}
      testId="settings-services"
      aside={
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void qc.invalidateQueries({ queryKey: HEALTHCHECK_KEY })}
          data-testid="services-recheck-all"
        >
          {t('adminSettings.services.recheckAll')}
        </Button>
      }
    >
      <Stack gap={0}>
        {healthServices.map((s) => (
          <ServiceRow key={s} service={s} />
        ))}
      </Stack>
    </SettingsCard>
  );
}
