import { Alert, Group, Loader, Modal, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconPhoto } from '@tabler/icons-react';
import { TRAINING_STEPS, type ComputeModel } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { useModelName } from '../../../lib/modelName';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useModelVersions, useStartRun, useTrainableImages } from './api';
import { ImagesScope } from './ImagesScope';
import { FORM_ERROR } from './labels';
import { bodyOf, countQuery, formField, HOLDOUT_PERCENT, initialValues, validate, type TrainErrors, type TrainValues } from './trainForm';

/**
 * "Train new version" (ADMIN): the base version, the trainable images (all or filtered, with their count), the
 * held-out share and the effort. Each wrong field is named under it; the server's refusals land on their field.
 */
export function TrainDialog({ model, onClose }: { model: ComputeModel; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const nameOf = useModelName();
  const narrow = useMediaQuery('(max-width: 36em)');
  const [values, setValues] = useState<TrainValues>(() => initialValues(model.version));
  const [shown, setShown] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof TrainErrors, string>>>({});
  const versions = useModelVersions(model.id);
  const [query] = useDebouncedValue(countQuery(values), 300);
  const count = useTrainableImages(model.id, query);
  const start = useStartRun();
  const total = count.isSuccess ? count.data.total : undefined;
  const errors = validate(values, total);
  const set = (patch: Partial<TrainValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServerErrors({});
  };
  const params = { min: HOLDOUT_PERCENT.min, max: HOLDOUT_PERCENT.max };
  const stepParams = { min: TRAINING_STEPS.min, max: TRAINING_STEPS.max };
  const message = (field: keyof TrainErrors): string | undefined => {
    if (serverErrors[field]) return serverErrors[field];
    const key = errors[field];
    if (!shown || !key) return undefined;
    return t(FORM_ERROR[key], field === 'steps' ? stepParams : params);
  };
  const versionOptions = [...new Set([model.version, ...(versions.data ?? []).map((v) => v.version)])].map((v) => ({ value: v, label: v }));
  const submit = () => {
    setShown(true);
    if (Object.keys(errors).length > 0 || total === undefined) return;
    start.mutate(bodyOf(model.id, values), {
      onSuccess: (run) => {
        notifySuccess(run.message || t('adminTraining.form.started', { version: run.candidateVersion }));
        onClose();
        void navigate(`/admin/training/${run.id}`);
      },
      onError: (e) => {
        const byField: Partial<Record<keyof TrainErrors, string>> = {};
        if (isApiError(e))
          for (const d of e.details) {
            const f = formField(d.field);
            if (f && !byField[f]) byField[f] = d.message;
          }
        setServerErrors(byField);
        notifyError(errorText(t, e, 'admin.error'));
      },
    });
  };
  return (
    <Modal opened onClose={onClose} title={t('adminTraining.form.title', { name: nameOf(model) })} size="lg" fullScreen={narrow}>
      <Stack data-testid="train-dialog">
        <Select
          label={t('adminTraining.form.baseVersion')}
          description={t('adminTraining.form.baseVersionHint')}
          data={versionOptions}
          value={values.baseVersion}
          onChange={(v) => set({ baseVersion: v })}
          error={message('baseVersion')}
          withAsterisk
          allowDeselect={false}
          rightSection={versions.isPending ? <Loader size={14} /> : undefined}
          comboboxProps={{ withinPortal: true }}
          data-testid="train-base"
        />
        <ImagesScope modelId={model.id} values={values} errorText={message} set={set} />
        <Group gap="xs" wrap="nowrap" data-testid="train-count" data-count={total ?? ''}>
          {count.isFetching ? <Loader size={14} /> : <IconPhoto size={16} />}
          {count.isError ? (
            <Text size="sm" c="red">
              {t('adminTraining.form.countFailed')}
            </Text>
          ) : total === undefined ? (
            <Text size="sm" c="dimmed">
              {t('adminTraining.form.counting')}
            </Text>
          ) : (
            <Text size="sm" fw={500}>
              {t('adminTraining.form.count', { count: total })}
            </Text>
          )}
        </Group>
        {message('images') && (
          <Alert color="red" icon={<IconAlertCircle size={16} />} data-testid="train-images-error">
            {message('images')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('adminTraining.form.holdout')}
            description={t('adminTraining.form.holdoutHint', params)}
            value={values.holdoutPercent}
            onChange={(v) => set({ holdoutPercent: v })}
            error={message('holdoutPercent')}
            allowDecimal={false}
            suffix=" %"
            data-testid="train-holdout"
          />
          <NumberInput
            label={t('adminTraining.form.steps')}
            description={t('adminTraining.form.stepsHint', stepParams)}
            value={values.steps}
            onChange={(v) => set({ steps: v })}
            error={message('steps')}
            allowDecimal={false}
            thousandSeparator=""
            data-testid="train-steps"
          />
        </SimpleGrid>
        <FormActions
          submitLabel={t('adminTraining.form.start')}
          cancelLabel={t('admin.cancel')}
          onCancel={onClose}
          onSubmit={submit}
          loading={start.isPending}
          submitTestId="train-start"
        />
      </Stack>
    </Modal>
  );
}
