import { Alert, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { computeNodesApi, LAUNCHER_VERSIONS_KEY, NODES_KEY, useLauncherVersions } from './api';

/** "Update All Launchers": only the versions the launchers report are offered. */
export function UpdateAllModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const versions = useLauncherVersions(opened);
  const [version, setVersion] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: () => call(computeNodesApi.updateAll, { body: { version: version! } }),
    onSuccess: async () => {
      notifySuccess(t('admin.servers.executorsUpdated'));
      await Promise.all([qc.invalidateQueries({ queryKey: NODES_KEY }), qc.invalidateQueries({ queryKey: LAUNCHER_VERSIONS_KEY })]);
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.servers.executorsUpdateFailed')),
  });
  const offered = versions.data ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.servers.updateAllTitle')}>
      <Stack>
        <Text size="sm">{t('admin.servers.updateAllText')}</Text>
        {versions.isSuccess && offered.length === 0 && (
          <Alert color="yellow" data-testid="no-reported-versions">
            {t('compute.servers.noReportedVersions')}
          </Alert>
        )}
        <Select
          label={t('admin.servers.version')}
          placeholder={t('admin.servers.versionPlaceholder')}
          data={offered}
          value={version && offered.includes(version) ? version : null}
          onChange={setVersion}
          searchable
          disabled={versions.isPending}
        />
        <FormActions
          submitLabel={t('admin.servers.update')}
          cancelLabel={t('admin.cancel')}
          onCancel={onClose}
          onSubmit={() => update.mutate()}
          loading={update.isPending}
          disabled={!version || !offered.includes(version)}
        />
      </Stack>
    </Modal>
  );
}
