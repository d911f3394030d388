import { Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPlayerPlay, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import type { ComputeNode } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { computeNodesApi, NODES_KEY } from './api';
import { cloudButtons } from './logic';

/** Start and Stop (cloud servers) and Delete of the selected server. */
export function ServerActions({ node, onDeleted }: { node: ComputeNode; onDeleted: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [pending, setPending] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: NODES_KEY });
  const settle = async () => {
    await refresh();
    setPending(false);
  };
  const start = useMutation({
    mutationFn: () => call(computeNodesApi.start, { params: { id: node.id } }),
    onMutate: () => setPending(true),
    onSuccess: () => notifySuccess(t('admin.servers.nodeStarting')),
    onError: () => notifyError(t('admin.servers.nodeStartFailed')),
    onSettled: settle,
  });
  const stop = useMutation({
    mutationFn: () => call(computeNodesApi.stop, { params: { id: node.id } }),
    onMutate: () => setPending(true),
    onSuccess: () => notifySuccess(t('admin.servers.nodeStopping')),
    onError: () => notifyError(t('admin.servers.nodeStopFailed')),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: () => call(computeNodesApi.remove, { params: { id: node.id } }),
    onSuccess: async () => {
      notifySuccess(t('admin.servers.serverDeleted'));
      onDeleted();
      await refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const buttons = cloudButtons(node.status, pending || !!node.transition);
  return (
    <Group gap="xs" wrap="wrap">
      {node.nodeType === 'CLOUD' && (
        <>
          <Button
            size="xs"
            variant="light"
            color="green"
            leftSection={<IconPlayerPlay size={14} />}
            disabled={buttons.startDisabled}
            loading={start.isPending}
            onClick={() => start.mutate()}
          >
            {t('admin.servers.start')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="orange"
            leftSection={<IconPlayerStop size={14} />}
            disabled={buttons.stopDisabled}
            loading={stop.isPending}
            onClick={() => stop.mutate()}
          >
            {t('admin.servers.stop')}
          </Button>
        </>
      )}
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconTrash size={14} />}
        loading={remove.isPending}
        onClick={() => confirmDelete(t, t('admin.servers.deleteServerConfirm', { name: node.name }), () => remove.mutate())}
      >
        {t('admin.servers.deleteServer')}
      </Button>
    </Group>
  );
}
