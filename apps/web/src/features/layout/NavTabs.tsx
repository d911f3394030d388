import { Group, ScrollArea, Tabs } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ManageFavoritesMenu } from '../favourites/ManageFavoritesMenu';
import { useFavorites } from '../favourites/api';
import { pageTitleKey } from './pages';
import { useModelName } from '../../lib/modelName';

/** A tab's name, cut with an ellipsis beyond TAB_MAX px (the whole name in its tooltip), so more tabs fit. */
const TAB_MAX = 170;
const TabName = ({ children, title }: { children: ReactNode; title: string }) => (
  <span
    title={title}
    style={{
      display: 'inline-block',
      maxWidth: TAB_MAX,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
      verticalAlign: 'bottom',
    }}
  >
    {children}
  </span>
);

/**
 * Header tabs: Dashboard, favourite models, the current non-model page, and the Add menu. Issue 24 item 7: the
 * current tab (and a private model's lock, beside the name, not cut with it) is scrolled into view when the strip is
 * wider than the header, and long names are cut, so it is not clipped at 1280 px.
 */
export function NavTabs() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const location = useLocation();
  const navigate = useNavigate();
  const favorites = useFavorites();

  const path = location.pathname;
  const current = pageTitleKey(path);
  const viewport = useRef<HTMLDivElement>(null);
  const value = path.startsWith('/dashboard')
    ? '/dashboard'
    : (favorites.data?.find((f) => path === f.path || path.startsWith(f.path + '/'))?.path ?? (current ? path : null));

  const tabCount = favorites.data?.length ?? 0;
  type Favourite = NonNullable<typeof favorites.data>[number];
  const tabName = (f: Favourite) => nameOf({ name: f.path.split('/').pop(), displayName: f.displayName || f.label, displayNameDe: f.displayNameDe });
  useEffect(() => {
    const active = viewport.current?.querySelector<HTMLElement>('[role="tab"][data-active]');
    if (!active || !viewport.current) return;
    const v = viewport.current;
    const left = active.offsetLeft,
      right = left + active.offsetWidth;
    if (left < v.scrollLeft) v.scrollLeft = left;
    else if (right > v.scrollLeft + v.clientWidth) v.scrollLeft = right - v.clientWidth;
  }, [value, tabCount]);

  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
      <ScrollArea type="hover" scrollbarSize={4} offsetScrollbars={false} style={{ minWidth: 0 }} viewportRef={viewport} data-testid="nav-tabs">
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
                <TabName title={tabName(f)}>{tabName(f)}</TabName>
              </Tabs.Tab>
            ))}
            {current && (
              <Tabs.Tab value={path}>
                <TabName title={t(current)}>{t(current)}</TabName>
              </Tabs.Tab>
            )}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      <ManageFavoritesMenu />
    </Group>
  );
}
