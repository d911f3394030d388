import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserItem } from './userOptions';

/** One user in the Admin and Members dropdowns: name, then e-mail and company, and the other group if any. */
export function UserOptionView({ item }: { item: UserItem }) {
  const { t } = useTranslation();
  const detail = [item.email, item.company].filter(Boolean).join(' · ');
  return (
    <Stack gap={0}>
      <Text size="sm">{item.label}</Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
      {item.otherGroup ? (
        <Text size="xs" c="orange">
          {t('adminGroups.inGroup', { group: item.otherGroup })}
        </Text>
      ) : null}
    </Stack>
  );
}
