import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** A tool's icon and name in the tool switch. */
export function ToolLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      {icon}
      <span>{text}</span>
    </Group>
  );
}
