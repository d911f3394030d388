import { Button, FileButton, Group, Text, TextInput, Title } from '@mantine/core';
import { IconDeviceFloppy, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  subtitle: string;
  name: string;
  onName: (name: string) => void;
  onImport: (file: File | null) => void;
  onSave: () => void;
  saving: boolean;
  canImport: boolean;
  canSave: boolean;
}

/** Title (image and model), the mask's name, import and save. */
export function MaskEditorHeader({ subtitle, name, onName, onImport, onSave, saving, canImport, canSave }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <div>
        <Title order={1} size="h3">
          {t('maskEditor.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {subtitle}
        </Text>
      </div>
      <Group gap="xs" wrap="wrap">
        <TextInput
          aria-label={t('maskEditor.name')}
          placeholder={t('maskEditor.name')}
          value={name}
          onChange={(e) => onName(e.currentTarget.value)}
          w={160}
          size="sm"
        />
        <FileButton onChange={onImport} accept="image/png,image/jpeg">
          {(props) => (
            <Button {...props} variant="default" size="sm" leftSection={<IconUpload size={16} />} disabled={!canImport}>
              {t('maskEditor.import')}
            </Button>
          )}
        </FileButton>
        <Button size="sm" leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={saving} disabled={!canSave}>
          {t('maskEditor.save')}
        </Button>
      </Group>
    </Group>
  );
}
