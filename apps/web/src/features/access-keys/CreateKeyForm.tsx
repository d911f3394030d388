import { Button, Card, Group, NumberInput, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ACCESS_KEY_RATE_MAX, type AccessKeyScope, type CreatedAccessKey } from '@lamella/contracts';
import { applyServerErrors, required } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { useCreateAccessKey } from './api';

const RATE_MIN = 1;

/** The create form: name, scope (read-only or read and write) and requests a minute (1–600, 600 by default). */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedAccessKey) => void }) {
  const { t } = useTranslation();
  const create = useCreateAccessKey();
  const form = useForm<{ name: string; scope: AccessKeyScope; ratePerMinute: number | string }>({
    initialValues: { name: '', scope: 'READ_WRITE', ratePerMinute: ACCESS_KEY_RATE_MAX },
    validate: {
      name: required(t, 'accessKeys.name'),
      ratePerMinute: (value) =>
        typeof value === 'number' && Number.isInteger(value) && value >= RATE_MIN && value <= ACCESS_KEY_RATE_MAX
          ? null
          : t('accessKeys.rateInvalid', { min: RATE_MIN, max: ACCESS_KEY_RATE_MAX }),
    },
  });
  return (
    <Card withBorder>
      <form
        onSubmit={form.onSubmit((v) =>
          create.mutate(
            { name: v.name.trim(), scope: v.scope, ratePerMinute: Number(v.ratePerMinute) },
            {
              onSuccess: (key) => {
                form.reset();
                onCreated(key);
              },
              onError: (e) => {
                if (!applyServerErrors(form, e)) notifyError(errorText(t, e, 'accessKeys.createFailed'));
              },
            },
          ),
        )}
        noValidate
      >
        <Stack gap="md">
          <Group align="flex-start" gap="md" wrap="wrap">
            <TextInput
              label={t('accessKeys.name')}
              placeholder={t('accessKeys.namePlaceholder')}
              required
              maxLength={100}
              style={{ flex: '2 1 220px' }}
              {...form.getInputProps('name')}
            />
            <NumberInput
              label={t('accessKeys.rate')}
              description={t('accessKeys.rateHint', { min: RATE_MIN, max: ACCESS_KEY_RATE_MAX })}
              required
              min={RATE_MIN}
              max={ACCESS_KEY_RATE_MAX}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              style={{ flex: '1 1 180px' }}
              {...form.getInputProps('ratePerMinute')}
            />
          </Group>
          <Radio.Group label={t('accessKeys.scope')} description={t('accessKeys.scopeHint')} {...form.getInputProps('scope')}>
            <Group gap="lg" mt="xs">
              <Radio value="READ_ONLY" label={t('accessKeys.scopeReadOnly')} />
              <Radio value="READ_WRITE" label={t('accessKeys.scopeReadWrite')} />
            </Group>
          </Radio.Group>
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} />}>
              {t('accessKeys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
