import { ActionIcon, Menu } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DownloadItem {
  /** The list key and the item's `data-testid`. */
  testId: string;
  href: string;
  label: string;
  icon: ReactNode;
}

/** An icon button opening a menu of downloads (a job's report formats, its objects' formats): each item is a link with `download`. */
export function DownloadMenu({
  title,
  ariaLabel,
  icon,
  testId,
  items,
}: {
  title: string;
  ariaLabel: string;
  icon: ReactNode;
  testId: string;
  items: DownloadItem[];
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" title={title} aria-label={ariaLabel} data-testid={testId}>
          {icon}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{title}</Menu.Label>
        {items.map((item) => (
          <Menu.Item key={item.testId} component="a" href={item.href} download leftSection={item.icon} data-testid={item.testId}>
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
