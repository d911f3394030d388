import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconTool } from '@tabler/icons-react';
import { settingsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';
import { call } from '../../api/client';
import { MAINTENANCE_NOTICE_KEY } from './keys';

/**
 * The maintenance message as a banner above every signed-in page while maintenance mode is on (staff's text in the
 * reader's language); on the results page of a model under maintenance it says that model cannot run now.
 */
export function MaintenanceBanner() {
  const { t } = useTranslation();
  const modelPage = useMatch('/models/:name/*');
  const notice = useQuery({
    queryKey: MAINTENANCE_NOTICE_KEY,
    queryFn: () => call(settingsApi.maintenance),
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
  const n = notice.data;
  if (!n?.active) return null;
  const name = modelPage?.params.name?.toLowerCase();
  const here = name ? n.models.find((m) => m.name.toLowerCase() === name) : undefined;
  const names = n.models.map((m) => m.displayName).join(', ');
  return (
    <Alert
      color={here ? 'red' : 'orange'}
      variant="light"
      icon={<IconTool size={18} />}
      title={here ? t('adminSettings.banner.modelTitle', { model: here.displayName }) : t('adminSettings.banner.title')}
      mb="md"
      role="status"
      data-testid="maintenance-banner"
    >
      {n.message}
      {names && !here ? ` ${t('adminSettings.banner.models', { models: names })}` : null}
    </Alert>
  );
}
