import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CreatedAccessKey } from '@lamella/contracts';
import { notifySuccess } from '../../lib/notify';

/** The key's code is shown once, right after creation. */
export function CreatedKeyModal({ created, onClose }: { created: CreatedAccessKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={!!created} onClose={onClose} title={t('accessKeys.createdTitle')} size="lg" closeOnClickOutside={false}>
      {created && (
        <Stack gap="md">
          <Alert color="yellow" icon={<IconAlertTriangle />}>
            {t('accessKeys.onceWarning')}
          </Alert>
          <Text size="sm">{t('accessKeys.createdFor', { name: created.name })}</Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="access-key-code">
              {created.code}
            </Code>
            <CopyButton value={created.code} timeout={5000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
                  <ActionIcon
                    size="lg"
                    variant="light"
                    color={copied ? 'green' : 'indigo'}
                    aria-label={t('accessKeys.copy')}
                    onClick={() => {
                      copy();
                      notifySuccess(t('accessKeys.copied'));
                    }}
                  >
                    <IconCopy size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('accessKeys.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
