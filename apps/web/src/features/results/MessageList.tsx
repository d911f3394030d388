import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconX } from '@tabler/icons-react';
import type { MessageItem } from '../jobs/types';

export const MESSAGE_STYLE = {
  info: { color: 'blue', icon: <IconInfoCircle size={18} /> },
  warning: { color: 'yellow', icon: <IconAlertTriangle size={18} /> },
  error: { color: 'red', icon: <IconX size={18} /> },
} as const;

export function MessageList({ items }: { items: MessageItem[] }) {
  if (!items.length) return null;
  return (
    <Stack gap="xs" data-testid="result-messages">
      {items.map((m, i) => {
        const s = MESSAGE_STYLE[m.status] ?? MESSAGE_STYLE.info;
        return (
          <Alert key={i} color={s.color} icon={s.icon} title={m.title} variant="light">
            {m.content}
          </Alert>
        );
      })}
    </Stack>
  );
}
