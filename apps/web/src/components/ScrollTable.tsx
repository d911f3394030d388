import { ScrollArea, Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table with a header row that scrolls sideways on narrow screens instead of squeezing its columns below `minWidth`. */
export function ScrollTable({
  headers,
  minWidth,
  striped = false,
  children,
}: {
  headers: string[];
  minWidth: number;
  striped?: boolean;
  children: ReactNode;
}) {
  return (
    <ScrollArea type="auto">
      <Table striped={striped} verticalSpacing="xs" miw={minWidth}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
