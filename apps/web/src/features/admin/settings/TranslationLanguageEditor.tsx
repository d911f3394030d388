import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TranslationEntry } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText, fieldErrors } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { placeholdersOf, TRANSLATIONS_KEY, translationsApi } from './translationsQueries';

interface Props {
  entry: TranslationEntry;
  language: 'en' | 'de';
  onSaved: (entry: TranslationEntry) => void;
}

/** One language of a key: its file text (read only), the override field, Save and Delete override. */
export function TranslationLanguageEditor({ entry, language, onSaved }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const side = entry[language];
  const [value, setValue] = useState(side.override ?? side.file);
  const [error, setError] = useState<string | null>(null);
  const placeholders = placeholdersOf(side.file);
  const done = async (answer: { entry: TranslationEntry; message: string }) => {
    notifySuccess(answer.message);
    onSaved(answer.entry);
    await qc.invalidateQueries({ queryKey: TRANSLATIONS_KEY });
  };
  const save = useMutation({
    mutationFn: () => call(translationsApi.set, { body: { language, key: entry.key, value } }),
    onSuccess: async (answer) => {
      setError(null);
      await done(answer);
    },
    onError: (e) => {
      const fields = fieldErrors(t, e);
      setError(fields.value ?? fields.key ?? null);
      notifyError(errorText(t, e, 'adminTranslations.errors.saveFailed'));
    },
  });
  const remove = useMutation({
    mutationFn: () => call(translationsApi.remove, { params: { language, key: entry.key } }),
    onSuccess: async (answer) => {
      setValue(answer.entry[language].file);
      setError(null);
      await done(answer);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const label = t(`adminTranslations.languages.${language}`);
  return (
    <Stack gap="xs" data-testid={`translation-edit-${language}`}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      <div>
        <Text size="xs" c="dimmed">
          {t('adminTranslations.dialog.file')}
        </Text>
        <Paper bg="gray.0" p="xs" radius="sm">
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {side.file}
          </Text>
        </Paper>
      </div>
      <Textarea
        label={t('adminTranslations.dialog.override')}
        description={
          placeholders.length ? t('adminTranslations.dialog.placeholders', { list: placeholders.map((p) => `{{${p}}}`).join(', ') }) : undefined
        }
        autosize
        minRows={2}
        maxRows={8}
        value={value}
        error={error}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setError(null);
        }}
        data-testid={`translation-value-${language}`}
      />
      <Group justify="flex-end" gap="xs">
        {side.override !== null ? (
          <Button
            variant="default"
            color="red"
            loading={remove.isPending}
            onClick={() => confirmDelete(t, t('adminTranslations.dialog.deleteConfirm', { language: label, key: entry.key }), () => remove.mutate())}
            data-testid={`translation-delete-${language}`}
          >
            {t('adminTranslations.dialog.delete')}
          </Button>
        ) : null}
        <Button onClick={() => save.mutate()} loading={save.isPending} data-testid={`translation-save-${language}`}>
          {t('adminTranslations.dialog.save')}
        </Button>
      </Group>
    </Stack>
  );
}
