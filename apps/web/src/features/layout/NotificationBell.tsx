import { ActionIcon, Button, Center, Group, Indicator, Popover, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import type { Notification } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NotificationItem } from '../notifications/NotificationItem';
import { useNotificationAction, useNotificationFeed, useNotifications } from '../notifications/api';

/**
 * The bell with its 400×400 panel (user-app.md §2, §7): the list (newest first, pushed ones added at the top),
 * mark seen and delete, one or all; a PROJECT_SHARED notification opens /projects?project={id} and is marked seen.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  useNotificationFeed();
  const list = useNotifications();
  const action = useNotificationAction();
  const items = list.data ?? [];
  const unseen = items.filter((n) => !n.isSeen).length;

  const open = (n: Notification, modelPath?: string) => {
    if (!n.isSeen) action.mutate({ kind: 'seen', id: n.id });
    if (n.type === 'PROJECT_SHARED' && typeof n.payload.projectId === 'string') {
      setOpened(false);
      void navigate(`/projects?project=${encodeURIComponent(n.payload.projectId)}`);
    } else if (modelPath) {
      setOpened(false);
      void navigate(modelPath);
    }
  };

  return (
    // the panel stays on screen at 375 px in both languages (issue 24 item 7): shifted inside the viewport with 8 px to
    // spare, at most the viewport's width, and its header's buttons wrap under the title when they do not fit beside it
    <Popover position="bottom-end" shadow="md" withinPortal opened={opened} onChange={setOpened} middlewares={{ flip: false, shift: { padding: 8 } }}>
      <Popover.Target>
        <Indicator disabled={unseen === 0} label={unseen} size={16} offset={6} color="red">
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('notifications.title')}
            onClick={() => setOpened((o) => !o)}
            // the panel leaves the focus on the bell: Escape there closes it too
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpened(false);
            }}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown
        p={0}
        style={{ width: 'min(400px, calc(100vw - 16px))', maxWidth: 'calc(100vw - 16px)', height: 400 }}
        data-testid="notification-panel"
      >
        <Stack gap={0} h="100%">
          <Group justify="space-between" p="sm" gap={4} wrap="wrap" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            <Title order={2} size="h5">
              {t('notifications.title')}
            </Title>
            {items.length > 0 && (
              <Group gap={4} wrap="wrap" justify="flex-end">
                <Button size="compact-xs" variant="subtle" disabled={unseen === 0} onClick={() => action.mutate({ kind: 'seen', id: 'all' })}>
                  {t('notifications.markAllSeen')}
                </Button>
                <Button size="compact-xs" variant="subtle" color="red" onClick={() => action.mutate({ kind: 'delete', id: 'all' })}>
                  {t('notifications.deleteAll')}
                </Button>
              </Group>
            )}
          </Group>
          <ScrollArea style={{ flex: 1 }}>
            {list.isError ? (
              <Center h={340}>
                <Text c="red" size="sm">
                  {t('notifications.loadFailed')}
                </Text>
              </Center>
            ) : items.length === 0 ? (
              <Center h={340}>
                <Stack align="center" gap="xs">
                  <IconBellOff size={32} color="var(--mantine-color-gray-5)" aria-hidden />
                  <Text c="dimmed" size="sm">
                    {t('notifications.empty')}
                  </Text>
                </Stack>
              </Center>
            ) : (
              items.map((n) => (
                <NotificationItem
                  key={n.id}
                  notification={n}
                  onOpen={open}
                  onSeen={(id) => action.mutate({ kind: 'seen', id })}
                  onDelete={(id) => action.mutate({ kind: 'delete', id })}
                />
              ))
            )}
          </ScrollArea>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
