import { Code, Table, Text } from '@mantine/core';
import type { AuditLogEntry } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/ScrollTable';
import { formatAdminDateTime } from '../../../lib/format';
import { useAuditLabels } from './useAuditLabels';

/** The entries of one page: time, who, what, on what, and the recorded details. */
export function AuditTable({ items }: { items: AuditLogEntry[] }) {
  const { t } = useTranslation();
  const labels = useAuditLabels();
  return (
    <ScrollTable
      striped
      minWidth={860}
      headers={[
        t('auditLog.column.time'),
        t('auditLog.column.actor'),
        t('auditLog.column.action'),
        t('auditLog.column.target'),
        t('auditLog.column.details'),
      ]}
    >
      {items.map((e) => (
        <Table.Tr key={e.id}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAdminDateTime(e.createdAt)}</Table.Td>
          <Table.Td>
            {e.actor ? (
              <>
                <Text size="sm">{e.actor.fullName || e.actor.email}</Text>
                <Text size="xs" c="dimmed">
                  {e.actor.email}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {t('auditLog.deletedActor')}
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{labels.action(e.action)}</Text>
            <Text size="xs" c="dimmed">
              {e.action}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{labels.target(e.targetType)}</Text>
            {e.targetName ? (
              <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }} data-testid="audit-target-name">
                {e.targetName}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }} title={e.targetId ?? undefined}>
              {e.targetId ?? t('auditLog.none')}
            </Text>
          </Table.Td>
          <Table.Td>
            {Object.keys(e.details).length ? (
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxWidth: 360 }}>
                {JSON.stringify(e.details, null, 1)}
              </Code>
            ) : (
              <Text size="sm" c="dimmed">
                {t('auditLog.none')}
              </Text>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </ScrollTable>
  );
}
