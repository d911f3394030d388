import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UserSearch } from '../common/UserSearch';
import { useAuditLabels } from './useAuditLabels';

export interface AuditFilterValues {
  actorId: string | null;
  action: string | null;
  targetType: string | null;
  targetId: string;
}

export const noFilters: AuditFilterValues = { actorId: null, action: null, targetType: null, targetId: '' };

/** Filters of the audit log: who acted, what they did, on what. */
export function AuditFilters({ value, onChange }: { value: AuditFilterValues; onChange: (next: AuditFilterValues) => void }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  const set = (patch: Partial<AuditFilterValues>) => onChange({ ...value, ...patch });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
      <UserSearch
        label={t('auditLog.filter.actor')}
        placeholder={t('auditLog.filter.actorPlaceholder')}
        value={value.actorId}
        onChange={(actorId) => set({ actorId })}
      />
      <Select
        label={t('auditLog.filter.action')}
        placeholder={t('auditLog.filter.any')}
        data={Object.entries(labels.actions).map(([code, label]) => ({ value: code, label }))}
        value={value.action}
        onChange={(action) => set({ action })}
        searchable
        clearable
      />
      <Select
        label={t('auditLog.filter.targetType')}
        placeholder={t('auditLog.filter.any')}
        data={Object.entries(labels.targets).map(([code, label]) => ({ value: code, label }))}
        value={value.targetType}
        onChange={(targetType) => set({ targetType })}
        clearable
      />
      <Group align="end" gap="xs" wrap="nowrap">
        <TextInput
          label={t('auditLog.filter.targetId')}
          value={value.targetId}
          onChange={(e) => set({ targetId: e.currentTarget.value })}
          style={{ flex: 1 }}
          maxLength={100}
        />
        <Button variant="default" onClick={() => onChange(noFilters)}>
          {t('auditLog.filter.reset')}
        </Button>
      </Group>
    </SimpleGrid>
  );
}
