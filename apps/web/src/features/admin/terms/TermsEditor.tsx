import { Alert, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTerms } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText, fieldErrors } from '../../../lib/errorText';
import { formatAdminDateTime } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { RichText } from '../common/RichText';
import { termsApi, useAdminTerms } from './api';

interface Props {
  language: AdminTerms['language'];
}

/** One language's terms: the rich-text editor, the published version and Save ('Terms have been updated.'). */
export function TermsEditor({ language }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const query = useAdminTerms(language);
  // null: untouched (the stored text); a string: the editor's HTML ('' when empty).
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (content: string) => call(termsApi.save, { params: { language }, body: { content } }),
    onSuccess: async (saved) => {
      notifySuccess(saved.message);
      setDraft(null);
      // This and the other language's editor (the shared version) and the public text follow. The staff member is
      // asked to accept the new version like everyone else, at the next sign-in (not in the middle of editing).
      await Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'terms'] }), qc.invalidateQueries({ queryKey: ['terms'] })]);
    },
    onError: (e) => {
      // a refusal of the text is shown under the editor; anything else as a notification
      const field = fieldErrors(t, e).content ?? null;
      setError(field);
      if (!field) notifyError(errorText(t, e, 'adminTerms.errors.saveFailed'));
    },
  });

  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy>
        <Skeleton h={16} w="40%" />
        <Skeleton h={220} />
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        <Group justify="space-between">
          <Text size="sm">{errorText(t, query.error, 'adminTerms.loadFailed')}</Text>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  const terms = query.data;
  const submit = () => {
    const content = draft ?? terms.content;
    // an emptied rich-text editor still holds markup (<p></p>): no visible text is no content
    if (
      !content
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .trim()
    ) {
      setError(t('adminTerms.errors.contentRequired'));
      return;
    }
    setError(null);
    save.mutate(content);
  };
  const published = terms.publishedAt
    ? terms.publishedBy
      ? t('adminTerms.versionInfo', { version: terms.version, date: formatAdminDateTime(terms.publishedAt), name: terms.publishedBy.fullName })
      : t('adminTerms.versionInfoNoAuthor', { version: terms.version, date: formatAdminDateTime(terms.publishedAt) })
    : t('adminTerms.builtIn');
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" data-testid={`terms-version-${language}`}>
          {published}
        </Text>
        <Badge variant="light" data-testid="terms-current-version">
          {t('adminTerms.currentVersion', { version: terms.currentVersion })}
        </Badge>
      </Group>
      <RichText
        key={`${language}-${terms.version}`}
        label={t(`adminTerms.labels.${language}`)}
        value={terms.content}
        onChange={(html) => {
          setDraft(html);
          if (html) setError(null);
        }}
        error={error}
        testId={`terms-editor-${language}`}
        minHeight={320}
      />
      <FormActions submitLabel={t('adminTerms.save')} onSubmit={submit} loading={save.isPending} submitTestId={`terms-save-${language}`} />
    </Stack>
  );
}
