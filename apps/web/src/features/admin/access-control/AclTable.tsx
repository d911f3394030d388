import { Table } from '@mantine/core';
import type { AclEntry } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { AclRow } from './AclRow';

/** back-office §2 "Access control": a table with User and Privileges. */
export function AclTable({ entries }: { entries: AclEntry[] }) {
  const { t } = useTranslation();
  return (
    <Table verticalSpacing="sm" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="35%">{t('accessControl.user')}</Table.Th>
          <Table.Th>{t('accessControl.privileges')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((e) => (
          <AclRow key={e.userId} entry={e} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
