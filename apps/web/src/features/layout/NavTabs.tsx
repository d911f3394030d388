import { Group, ScrollArea, Tabs } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ManageFavoritesMenu } from '../favourites/ManageFavoritesMenu';
import { useFavorites } from '../favourites/api';
import { pageTitleKey } from './pages';
import { useModelName } from '../../lib/modelName';

/** Header tabs: Dashboard, favourite models, the current non-model page, and the Add menu. */
export function NavTabs() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const location = useLocation();
  const navigate = useNavigate();
  const favorites = useFavorites();

  const path = location.pathname;
  const current = pageTitleKey(path);
  const value = path.startsWith('/dashboard')
    ? '/dashboard'
    : (favorites.data?.find((f) => path === f.path || path.startsWith(f.path + '/'))?.path ?? (current ? path : null));

  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
      <ScrollArea type="hover" scrollbarSize={4} offsetScrollbars={false} style={{ minWidth: 0 }}>
        <Tabs
          value={value}
          onChange={(v) => v && navigate(v)}
          variant="default"
          aria-label={t('layout.tabs.label')}
          styles={{ list: { flexWrap: 'nowrap', borderBottom: 0 }, tab: { flexShrink: 0 } }}
        >
          <Tabs.List>
            <Tabs.Tab value="/dashboard">{t('layout.tabs.dashboard')}</Tabs.Tab>
            {favorites.data?.map((f) => (
              <Tabs.Tab
                key={f.id}
                value={f.path}
                rightSection={f.accessType === 'PRIVATE' ? <IconLock size={14} aria-label={t('layout.tabs.private')} /> : undefined}
              >
                {nameOf({ name: f.path.split('/').pop(), displayName: f.displayName || f.label, displayNameDe: f.displayNameDe })}
              </Tabs.Tab>
            ))}
            {current && <Tabs.Tab value={path}>{t(current)}</Tabs.Tab>}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      <ManageFavoritesMenu />
    </Group>
  );
}
