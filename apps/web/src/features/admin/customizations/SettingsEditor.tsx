/** The settings editor of a group: own settings (JSON), resolved settings, defaults, validate, save (back-office.md §4). */
import { Alert, Button, Center, Group, Loader, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { JsonEditor } from '../common/JsonEditor';
import { custApi, modelIdOf } from './api';
import type { CustomizationGroup } from '@lamella/contracts';
import { groupValidationErrors, parseJson, type ErrorGroup } from './logic';
import { ValidationModal } from './ValidationModal';

export function SettingsEditor({ group }: { group: CustomizationGroup | null }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [tab, setTab] = useState<string | null>('input');
  /** What the user typed; until then the group's saved settings (the editor is keyed by group, so it starts afresh). */
  const [edited, setText] = useState<string | null>(null);
  const [errors, setErrors] = useState<ErrorGroup[] | null>(null);
  const gid = group?.id ?? '';
  const settings = useQuery({ queryKey: ['admin', 'cust-settings', gid], queryFn: () => custApi.settings(gid), enabled: !!group });
  const resolved = useQuery({
    queryKey: ['admin', 'cust-resolved', gid],
    queryFn: () => custApi.resolved(gid),
    enabled: !!group && tab === 'resolved',
  });
  const text = edited ?? (group && settings.data ? JSON.stringify(settings.data, null, 2) : '{}');
  const parsed = parseJson(text);
  const modelId = group ? modelIdOf(group) : '';
  const defaults = useMutation({
    mutationFn: () => custApi.defaults(modelId),
    onSuccess: (d) => {
      setText(JSON.stringify(d.defaults ?? {}, null, 2));
      setTab('input');
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.cust.defaultsFailed')),
  });
  const validate = useMutation({
    mutationFn: () => custApi.validate({ modelId, groupId: gid, settings: parsed.ok ? parsed.value : {} }),
    onSuccess: (r) => {
      if (!r || (Array.isArray(r) && r.length === 0)) {
        notifySuccess(t('admin.cust.valid'));
        return;
      }
      setErrors(groupValidationErrors(r, { general: t('admin.cust.generalError'), item: (n) => t('admin.cust.item', { n }) }));
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.cust.validationFailed')),
  });
  const save = useMutation({
    mutationFn: () => custApi.saveSettings(gid, (parsed.ok ? parsed.value : {}) as Record<string, unknown>),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.settingsUpdated'));
      await qc.invalidateQueries({ queryKey: ['admin', 'cust-settings', gid] });
      await qc.invalidateQueries({ queryKey: ['admin', 'cust-resolved'] });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={5}>{t('admin.cust.settings')}</Title>
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant="default" disabled={!group} loading={defaults.isPending} onClick={() => defaults.mutate()}>
              {t('admin.cust.getDefaults')}
            </Button>
            <Button size="xs" variant="light" disabled={!group || !parsed.ok} loading={validate.isPending} onClick={() => validate.mutate()}>
              {t('admin.cust.validate')}
            </Button>
            <Button size="xs" disabled={!group || !parsed.ok} loading={save.isPending} onClick={() => save.mutate()}>
              {t('admin.cust.saveSettings')}
            </Button>
          </Group>
        </Group>
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab value="input">{t('admin.cust.userInput')}</Tabs.Tab>
            <Tabs.Tab value="resolved" disabled={!group}>
              {t('admin.cust.resolved')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="input" pt="xs">
            {group && settings.isPending ? (
              <Center p="lg">
                <Loader size="sm" />
              </Center>
            ) : (
              <>
                <JsonEditor value={text} onChange={setText} readOnly={!group} testId="settings-editor" label={t('admin.cust.userInput')} />
                {!parsed.ok && (
                  <Text c="red" size="sm" mt={4} data-testid="json-error">
                    {t('admin.invalidJson')}
                  </Text>
                )}
              </>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="resolved" pt="xs">
            {resolved.isPending ? (
              <Center p="lg">
                <Loader size="sm" />
              </Center>
            ) : resolved.isError ? (
              <Alert color="red">{errorText(t, resolved.error, 'admin.error')}</Alert>
            ) : (
              <JsonEditor value={JSON.stringify(resolved.data ?? {}, null, 2)} readOnly testId="resolved-editor" label={t('admin.cust.resolved')} />
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>
      <ValidationModal errors={errors} onClose={() => setErrors(null)} />
    </Paper>
  );
}
