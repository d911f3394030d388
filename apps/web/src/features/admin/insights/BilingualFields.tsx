import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RichText } from '../common/RichText';
import type { BilingualErrors, BilingualValues } from './bilingual';

interface Props {
  /** The values the editors start from (remount with a key to load others). */
  initial: BilingualValues;
  values: BilingualValues;
  errors: BilingualErrors;
  onChange: (patch: Partial<BilingualValues>) => void;
  testIdPrefix: string;
}

/** English and German title and rich-text content of an insight or news item. */
export function BilingualFields({ initial, values, errors, onChange, testIdPrefix }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('insights.form.titleEn')}
          value={values.titleEn}
          onChange={(e) => onChange({ titleEn: e.currentTarget.value })}
          error={errors.titleEn}
          required
          data-testid={`${testIdPrefix}-title-en`}
        />
        <TextInput
          label={t('insights.form.titleDe')}
          value={values.titleDe}
          onChange={(e) => onChange({ titleDe: e.currentTarget.value })}
          error={errors.titleDe}
          required
          data-testid={`${testIdPrefix}-title-de`}
        />
      </SimpleGrid>
      <RichText
        label={t('insights.form.contentEn')}
        value={initial.contentEn}
        onChange={(html) => onChange({ contentEn: html })}
        error={errors.contentEn}
        testId={`${testIdPrefix}-content-en`}
      />
      <RichText
        label={t('insights.form.contentDe')}
        value={initial.contentDe}
        onChange={(html) => onChange({ contentDe: html })}
        error={errors.contentDe}
        testId={`${testIdPrefix}-content-de`}
      />
    </Stack>
  );
}
