import { Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  name: string;
  description: string;
  onName: (name: string) => void;
  onDescription: (description: string) => void;
  /** Shown under the name field. */
  error: string | null;
  /** Focus the name field when the surrounding modal opens. */
  autoFocus?: boolean;
}

/** The name and description fields of the create and edit project forms. */
export function ProjectFields({ name, description, onName, onDescription, error, autoFocus }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <TextInput
        label={t('projects.fields.name')}
        required
        value={name}
        onChange={(e) => onName(e.currentTarget.value)}
        error={error}
        maxLength={200}
        data-autofocus={autoFocus || undefined}
      />
      <Textarea
        label={t('projects.fields.description')}
        value={description}
        onChange={(e) => onDescription(e.currentTarget.value)}
        autosize
        minRows={2}
        maxLength={2000}
      />
    </Stack>
  );
}
