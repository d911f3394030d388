import { Button, Group, SegmentedControl, TextInput } from '@mantine/core';
import type { ShareRole } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { notifySuccess } from '../../lib/notify';
import { useShareProject } from './api';
import { ACCESS_LABEL } from './accessLabel';

/** Share by e-mail address as VIEWER or EDITOR (an address without an account gets an invitation). */
export function ShareForm({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const share = useShareProject(projectId);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ShareRole>('VIEWER');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    share.mutate(
      { email: email.trim(), role },
      {
        onSuccess: () => {
          notifySuccess(t('projects.sharing.done', { email: email.trim() }));
          setEmail('');
        },
        onError: (err) => setError(errorText(t, err)),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label={t('projects.sharing.email')}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          style={{ flex: '1 1 220px' }}
        />
        <SegmentedControl
          value={role}
          onChange={(v) => setRole(v as ShareRole)}
          data={[
            { value: 'VIEWER', label: t(ACCESS_LABEL.VIEWER) },
            { value: 'EDITOR', label: t(ACCESS_LABEL.EDITOR) },
          ]}
          aria-label={t('projects.sharing.role')}
        />
        <Button type="submit" loading={share.isPending} disabled={!email.trim()}>
          {t('projects.sharing.submit')}
        </Button>
      </Group>
    </form>
  );
}
