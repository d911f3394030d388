import { Alert, JsonInput, Modal, NumberInput, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ComputeNode } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { computeNodesApi, NODES_KEY, useLauncherVersionChoices } from './api';
import { parseEnv } from './logic';

/**
 * "Add Launcher" on a server: version (picked from what the launchers report or the releases of this build), port
 * (free on that machine), GPU affinity, environment variables. The server answers once the new launcher answered
 * its health check (deployed) or did not within a few seconds (said so, the launcher is kept).
 */
export function AddLauncherModal({
  node,
  opened,
  onClose,
  versions,
}: {
  node: ComputeNode;
  opened: boolean;
  onClose: () => void;
  versions: string[];
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const choices = useLauncherVersionChoices(opened);
  const reported = [...new Set([...(choices.data?.reported ?? []), ...versions])];
  const releases = (choices.data?.releases ?? []).filter((v) => !reported.includes(v));
  const versionData = [
    ...(reported.length ? [{ group: t('compute.servers.reportedVersions'), items: reported }] : []),
    ...(releases.length ? [{ group: t('compute.servers.releaseVersions'), items: releases }] : []),
  ];
  const form = useForm({
    initialValues: { version: '', port: 8000 as number | string, gpuAffinity: 0 as number | string, envVariables: '' },
    validate: {
      version: (v) => (v.trim() ? null : t('admin.servers.required')),
      envVariables: (v) => (parseEnv(v) ? null : t('admin.invalidJson')),
    },
    validateInputOnChange: ['envVariables'],
  });
  const close = () => {
    setServerError(null);
    onClose();
  };
  const create = useMutation({
    mutationFn: () =>
      call(computeNodesApi.createLauncher, {
        body: {
          version: form.values.version.trim(),
          port: Number(form.values.port) || 8000,
          gpuAffinity: Math.max(0, Number(form.values.gpuAffinity) || 0),
          envVariables: parseEnv(form.values.envVariables) ?? {},
          nodeId: node.id,
        },
      }),
    onSuccess: async (r) => {
      if (r.deployed) notifySuccess(t('admin.servers.executorDeployed'));
      else notifyError(r.message);
      await qc.invalidateQueries({ queryKey: NODES_KEY });
      form.reset();
      close();
    },
    onError: (e) => {
      // e.g. the port is taken on that machine: the server names it
      setServerError(errorText(t, e, 'admin.servers.executorDeployFailed'));
      notifyError(t('admin.servers.executorDeployFailed'));
    },
  });
  return (
    <Modal opened={opened} onClose={close} title={t('admin.servers.addLauncherTitle')}>
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          {serverError && (
            <Alert color="red" title={t('admin.servers.errorTitle')} data-testid="launcher-error">
              {serverError}
            </Alert>
          )}
          <Select
            label={t('admin.servers.version')}
            placeholder={t('admin.servers.versionPlaceholder')}
            withAsterisk
            data={versionData}
            searchable
            disabled={choices.isPending}
            {...form.getInputProps('version')}
            value={form.values.version || null}
            onChange={(v) => form.setFieldValue('version', v ?? '')}
          />
          <NumberInput label={t('admin.servers.port')} min={1} max={65535} allowDecimal={false} {...form.getInputProps('port')} />
          <NumberInput
            label={t('admin.servers.gpuAffinity')}
            min={0}
            allowNegative={false}
            allowDecimal={false}
            {...form.getInputProps('gpuAffinity')}
          />
          <JsonInput
            label={t('admin.servers.envVariables')}
            placeholder={t('admin.servers.envPlaceholder')}
            validationError={t('admin.invalidJson')}
            autosize
            minRows={3}
            {...form.getInputProps('envVariables')}
          />
          <FormActions
            submitLabel={t('admin.create')}
            cancelLabel={t('admin.cancel')}
            onCancel={onClose}
            loading={create.isPending}
            disabled={!form.values.version.trim()}
          />
        </Stack>
      </form>
    </Modal>
  );
}
