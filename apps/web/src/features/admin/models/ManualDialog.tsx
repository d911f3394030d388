import { Alert, Center, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComputeModel } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { RichText } from '../common/RichText';
import { computeModelsApi, modelManualKey } from './api';

type Position = 'TOP' | 'BOTTOM';
type Language = 'en' | 'de';

/** "Info": the user manual of a model, per position (model info on top, or below the results) and language. */
export function ManualDialog({ model, onClose }: { model: ComputeModel; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [position, setPosition] = useState<Position>('TOP');
  const [language, setLanguage] = useState<Language>('en');
  const key = modelManualKey(model.id, position, language);
  const manual = useQuery({ queryKey: key, queryFn: () => call(computeModelsApi.manual, { params: { id: model.id, position, language } }) });
  const [text, setText] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      call(computeModelsApi.saveManual, { params: { id: model.id }, body: { text: text ?? manual.data?.text ?? '', position, language } }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.manualUpdated'));
      await qc.invalidateQueries({ queryKey: key });
      await qc.invalidateQueries({ queryKey: ['model-manual', model.id] });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const change = (fn: () => void) => {
    setText(null);
    fn();
  };
  return (
    <Modal opened onClose={onClose} title={t('admin.models.manualTitle', { name: model.displayName })} size="xl">
      <Stack>
        <Group wrap="wrap" gap="md">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('admin.models.position')}
            </Text>
            <SegmentedControl
              value={position}
              onChange={(v) => change(() => setPosition(v as Position))}
              data={(['TOP', 'BOTTOM'] as const).map((v) => ({ value: v, label: t(`admin.models.positions.${v}`) }))}
            />
          </div>
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('admin.models.language')}
            </Text>
            <SegmentedControl
              value={language}
              onChange={(v) => change(() => setLanguage(v as Language))}
              data={(['en', 'de'] as const).map((v) => ({ value: v, label: t(`admin.models.languages.${v}`) }))}
            />
          </div>
        </Group>
        {manual.isPending ? (
          <Center p="lg">
            <Loader />
          </Center>
        ) : manual.isError ? (
          <Alert color="red">{errorText(t, manual.error, 'admin.error')}</Alert>
        ) : (
          <RichText
            key={`${position}-${language}-${manual.dataUpdatedAt}`}
            value={manual.data.text}
            onChange={setText}
            testId="manual-editor"
            minHeight={260}
          />
        )}
        <FormActions
          submitLabel={t('admin.save')}
          cancelLabel={t('admin.close')}
          onCancel={onClose}
          onSubmit={() => save.mutate()}
          loading={save.isPending}
          disabled={manual.isPending || manual.isError}
        />
      </Stack>
    </Modal>
  );
}
