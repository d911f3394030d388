import { SimpleGrid, Text } from '@mantine/core';
import type { ComputeNode } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { NO_VALUE } from '../../../lib/format';

/** IP, type, cloud provider and instance, description of the selected server. */
export function ServerInfo({ node }: { node: ComputeNode }) {
  const { t } = useTranslation();
  const described = Boolean(node.description?.trim());
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Text size="sm">
          <Text span c="dimmed">
            {t('admin.servers.ip')}:{' '}
          </Text>
          <Text span ff="monospace">
            {node.ip}
          </Text>
        </Text>
        <Text size="sm">
          <Text span c="dimmed">
            {t('admin.servers.nodeType')}:{' '}
          </Text>
          {t(`admin.servers.nodeTypes.${node.nodeType}`)}
        </Text>
        {node.nodeType === 'CLOUD' && (
          <>
            <Text size="sm">
              <Text span c="dimmed">
                {t('admin.servers.provider')}:{' '}
              </Text>
              {node.provider ?? NO_VALUE}
            </Text>
            <Text size="sm">
              <Text span c="dimmed">
                {t('admin.servers.instanceId')}:{' '}
              </Text>
              {node.instanceId ?? NO_VALUE}
            </Text>
          </>
        )}
      </SimpleGrid>
      <Text size="sm" mt="xs" c={described ? undefined : 'dimmed'} fs={described ? undefined : 'italic'} style={{ wordBreak: 'break-word' }}>
        {described ? node.description : t('admin.servers.noDescription')}
      </Text>
    </>
  );
}
