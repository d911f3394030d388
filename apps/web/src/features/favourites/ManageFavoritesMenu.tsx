import { ActionIcon, Checkbox, Group, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { errorText } from '../../lib/errorText';
import { useAvailableModels, useToggleFavorite } from './api';
import { useModelName } from '../../lib/modelName';

/** The "+" menu at the end of the tabs: one checkbox per available model. */
export function ManageFavoritesMenu() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const [opened, setOpened] = useState(false);
  const models = useAvailableModels(opened);
  const toggle = useToggleFavorite();

  const onToggle = (id: string, favorite: boolean) =>
    toggle.mutate({ id, favorite }, { onError: (e) => notifyError(errorText(t, e, 'layout.favorites.updateFailed')) });

  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-start" closeOnItemClick={false} withinPortal shadow="md">
      <Menu.Target>
        <Tooltip label={t('layout.favorites.title')} withArrow>
          <ActionIcon variant="subtle" aria-label={t('layout.favorites.title')} size="lg">
            <IconPlus size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown miw={240}>
        <Menu.Label>{t('layout.favorites.title')}</Menu.Label>
        {models.isPending && (
          <Group justify="center" p="sm">
            <Loader size="sm" />
          </Group>
        )}
        {models.isError && (
          <Text size="sm" c="red" p="sm">
            {t('layout.favorites.loadFailed')}
          </Text>
        )}
        {models.data?.length === 0 && (
          <Text size="sm" c="dimmed" p="sm">
            {t('layout.favorites.noModels')}
          </Text>
        )}
        {models.data?.map((m) => (
          <Menu.Item key={m.id} component="div" closeMenuOnClick={false}>
            <Checkbox
              label={
                <Group gap={4} wrap="nowrap">
                  {nameOf(m)}
                  {m.accessType === 'PRIVATE' && <IconLock size={14} aria-label={t('layout.tabs.private')} />}
                </Group>
              }
              checked={m.favorite}
              disabled={toggle.isPending && toggle.variables?.id === m.id}
              onChange={(e) => onToggle(m.id, e.currentTarget.checked)}
            />
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
