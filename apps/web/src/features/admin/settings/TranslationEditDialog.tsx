import { Button, Code, Divider, Group, Modal, Stack } from '@mantine/core';
import type { TranslationEntry } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TranslationLanguageEditor } from './TranslationLanguageEditor';

/** The edit dialog of one key: the file text and the override of English and German, each saved on its own. */
export function TranslationEditDialog({ entry: initial, onClose }: { entry: TranslationEntry; onClose: () => void }) {
  const { t } = useTranslation();
  // The latest answer of a save or delete, so both halves show what is stored.
  const [entry, setEntry] = useState(initial);
  return (
    <Modal opened onClose={onClose} title={t('adminTranslations.dialog.title')} size="lg" data-testid="translation-dialog">
      <Stack gap="md">
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {entry.key}
        </Code>
        <TranslationLanguageEditor entry={entry} language="en" onSaved={setEntry} />
        <Divider />
        <TranslationLanguageEditor entry={entry} language="de" onSaved={setEntry} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('adminTranslations.dialog.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
