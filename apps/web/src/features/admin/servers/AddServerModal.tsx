import { Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NodeType } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { computeNodesApi, NODES_KEY } from './api';
import { isIPv4 } from './logic';

/** "Add Server": name, IPv4 (unique), description; cloud servers also name their provider and instance. */
export function AddServerModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const req = (v: string) => (v.trim() ? null : t('admin.servers.required'));
  const form = useForm({
    initialValues: { name: '', ip: '', description: '', nodeType: 'ON_PREMISE' as NodeType, provider: '', instanceId: '' },
    validate: {
      name: req,
      ip: (v) => (!v.trim() ? t('admin.servers.required') : isIPv4(v) ? null : t('admin.servers.invalidIp')),
      description: req,
      provider: (v, values) => (values.nodeType === 'CLOUD' ? req(v) : null),
      instanceId: (v, values) => (values.nodeType === 'CLOUD' ? req(v) : null),
    },
  });
  const create = useMutation({
    mutationFn: () => {
      const v = form.values;
      return call(computeNodesApi.create, {
        body: {
          name: v.name.trim(),
          ip: v.ip.trim(),
          description: v.description.trim(),
          nodeType: v.nodeType,
          ...(v.nodeType === 'CLOUD' ? { provider: v.provider, instanceId: v.instanceId.trim() } : {}),
        },
      });
    },
    onSuccess: async (node) => {
      notifySuccess(t('admin.servers.serverCreated'));
      await qc.invalidateQueries({ queryKey: NODES_KEY });
      form.reset();
      onClose();
      onCreated(node.id);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const cloud = form.values.nodeType === 'CLOUD';
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.servers.addServerTitle')}>
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          <TextInput label={t('admin.servers.name')} withAsterisk {...form.getInputProps('name')} />
          <TextInput label={t('admin.servers.ip')} withAsterisk placeholder="192.168.0.10" {...form.getInputProps('ip')} />
          <Textarea label={t('admin.servers.description')} withAsterisk autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label={t('admin.servers.nodeType')}
            data={(['ON_PREMISE', 'CLOUD'] as const).map((v) => ({ value: v, label: t(`admin.servers.nodeTypes.${v}`) }))}
            allowDeselect={false}
            {...form.getInputProps('nodeType')}
            onChange={(v) => {
              form.setFieldValue('nodeType', (v ?? 'ON_PREMISE') as NodeType);
              if (v !== 'CLOUD') {
                form.setFieldValue('provider', '');
                form.setFieldValue('instanceId', '');
                form.clearFieldError('provider');
                form.clearFieldError('instanceId');
              }
            }}
          />
          <Select
            label={t('admin.servers.provider')}
            data={[{ value: 'OVH', label: 'OVH' }]}
            disabled={!cloud}
            withAsterisk={cloud}
            {...form.getInputProps('provider')}
            value={form.values.provider || null}
            onChange={(v) => form.setFieldValue('provider', v ?? '')}
          />
          <TextInput label={t('admin.servers.instanceId')} disabled={!cloud} withAsterisk={cloud} {...form.getInputProps('instanceId')} />
          <FormActions submitLabel={t('admin.create')} cancelLabel={t('admin.cancel')} onCancel={onClose} loading={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
