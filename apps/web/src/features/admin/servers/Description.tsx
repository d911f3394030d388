import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { truncate } from './logic';

/** A server's description in the list: cut at 50 characters, the whole text in a tooltip. */
export function Description({ text }: { text: string }) {
  const { t } = useTranslation();
  if (!text?.trim()) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('admin.servers.noDescription')}
      </Text>
    );
  }
  const d = truncate(text, 50);
  const body = (
    <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
      {d.text}
    </Text>
  );
  return d.truncated ? (
    <Tooltip label={text} multiline maw={320} withArrow>
      {body}
    </Tooltip>
  ) : (
    body
  );
}
