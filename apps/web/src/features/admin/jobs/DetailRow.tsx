/** One labelled row of the admin job detail table. */
import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={{ base: 120, sm: 200 } as unknown as number} style={{ verticalAlign: 'top', whiteSpace: 'normal' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-word' }}>{children}</Table.Td>
    </Table.Tr>
  );
}
