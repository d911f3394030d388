import { ActionIcon, Center, Popover, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The bell with its 400×400 panel. Real notifications come later; for now the panel shows the empty state. */
export function NotificationBell() {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('notifications.title')}>
          <IconBell size={20} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} style={{ width: 'min(400px, calc(100vw - 16px))', height: 400 }}>
        <Stack gap={0} h="100%">
          <Title order={2} size="h5" p="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            {t('notifications.title')}
          </Title>
          <ScrollArea style={{ flex: 1 }}>
            <Center h={340}>
              <Stack align="center" gap="xs">
                <IconBellOff size={32} color="var(--mantine-color-gray-5)" aria-hidden />
                <Text c="dimmed" size="sm">
                  {t('notifications.empty')}
                </Text>
              </Stack>
            </Center>
          </ScrollArea>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
