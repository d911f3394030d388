import { SimpleGrid, Switch, Tooltip } from '@mantine/core';
import { PERMISSIONS, type Permission } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { usePermissionLabels } from './usePermissionLabels';

/** The four privileges of one power user as switches (two columns on wide screens, one on phones). */
export function PrivilegeSwitches({
  name,
  held,
  disabled,
  onToggle,
}: {
  name: string;
  held: readonly Permission[];
  disabled: boolean;
  onToggle: (permission: Permission, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const labels = usePermissionLabels();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
      {PERMISSIONS.map((p) => (
        <Tooltip key={p} label={labels[p].hint} openDelay={400} multiline w={260}>
          <Switch
            label={labels[p].label}
            description={p}
            aria-label={t('accessControl.switchLabel', { permission: labels[p].label, name })}
            checked={held.includes(p)}
            disabled={disabled}
            onChange={(e) => onToggle(p, e.currentTarget.checked)}
          />
        </Tooltip>
      ))}
    </SimpleGrid>
  );
}
