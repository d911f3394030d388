import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { statusKey } from './logic';

const STATUS_COLOR = { ONLINE: 'green', OFFLINE: 'red', UNKNOWN: 'gray' } as const;

/** Online / Offline / Unknown of a server. */
export function StatusBadge({ status }: { status: string | null }) {
  const { t } = useTranslation();
  const key = statusKey(status);
  return (
    <Badge color={STATUS_COLOR[key]} variant="light" data-testid="node-status">
      {t(`admin.servers.status.${key}`)}
    </Badge>
  );
}
