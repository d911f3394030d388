import { ActionIcon, Alert, Button, Code, CopyButton, Group, Loader, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { launcherRegistrationApi, type ComputeNode, type CreatedRegistrationToken } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText, fieldErrors } from '../../../lib/errorText';
import { formatAdminDateTime } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { NODES_KEY } from './api';

const tokensKey = (nodeId: string) => ['admin', 'nodes', nodeId, 'registration-tokens'] as const;

/**
 * Registration tokens of the selected server: a launcher started on that machine with the server's URL and a
 * token joins by itself. The token is shown once, right after it is created; revoking removes its launchers.
 */
export function RegistrationTokens({ node }: { node: ComputeNode }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedRegistrationToken | null>(null);
  const tokens = useQuery({ queryKey: tokensKey(node.id), queryFn: () => call(launcherRegistrationApi.listTokens, { params: { id: node.id } }) });
  const create = useMutation({
    mutationFn: () => call(launcherRegistrationApi.createToken, { params: { id: node.id }, body: { name: name.trim() || undefined } }),
    onSuccess: (r) => {
      setCreated(r);
      setName('');
      notifySuccess(r.message);
      return qc.invalidateQueries({ queryKey: tokensKey(node.id) });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => call(launcherRegistrationApi.revokeToken, { params: { id } }),
    onSuccess: (r) => {
      notifySuccess(r.message);
      if (created?.id === r.id) setCreated(null);
      return Promise.all([qc.invalidateQueries({ queryKey: tokensKey(node.id) }), qc.invalidateQueries({ queryKey: NODES_KEY })]);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const nameError = create.error ? fieldErrors(t, create.error).name : undefined;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const command = created
    ? `LAUNCHER_SERVER_URL=${origin} LAUNCHER_REGISTRATION_TOKEN=${created.token} LAUNCHER_HOST=0.0.0.0 npx tsx apps/launcher/src/main.ts`
    : '';

  return (
    <Paper withBorder p="md" data-testid="registration-tokens">
      <Stack gap="sm">
        <Title order={4}>{t('registrationTokens.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('registrationTokens.intro', { ip: node.ip })}
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label={t('registrationTokens.name')}
              placeholder={node.name}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={200}
              error={nameError}
              style={{ flex: '1 1 200px' }}
            />
            <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
              {t('registrationTokens.create')}
            </Button>
          </Group>
        </form>
        {created && (
          <Alert color="green" title={t('registrationTokens.shownOnce')} withCloseButton onClose={() => setCreated(null)} data-testid="new-token">
            <Stack gap="xs">
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Code style={{ wordBreak: 'break-all', flex: 1 }} data-testid="new-token-value">
                  {created.token}
                </Code>
                <CopyButton value={created.token}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? t('registrationTokens.copied') : t('registrationTokens.copy')}>
                      <ActionIcon variant="light" onClick={copy} aria-label={t('registrationTokens.copy')}>
                        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
              <Text size="sm">{t('registrationTokens.howTo')}</Text>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {command}
              </Code>
            </Stack>
          </Alert>
        )}
        {tokens.isPending ? (
          <Loader size="sm" aria-label={t('registrationTokens.loading')} />
        ) : tokens.isError ? (
          <Alert color="red">{errorText(t, tokens.error, 'registrationTokens.loadFailed')}</Alert>
        ) : tokens.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('registrationTokens.empty')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="token-list">
            {tokens.data.map((tok) => (
              <Paper key={tok.id} withBorder p="xs" data-testid="token-row">
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ wordBreak: 'break-word' }}>
                      {tok.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                      {t('registrationTokens.details', {
                        prefix: tok.tokenPrefix,
                        count: tok.launcherCount,
                        created: formatAdminDateTime(tok.createdAt),
                        used: tok.lastUsedAt ? formatAdminDateTime(tok.lastUsedAt) : t('registrationTokens.never'),
                      })}
                    </Text>
                  </Stack>
                  <Tooltip label={t('registrationTokens.revoke')}>
                    <ActionIcon
                      variant="light"
                      color="red"
                      loading={revoke.isPending && revoke.variables === tok.id}
                      aria-label={t('registrationTokens.revoke')}
                      onClick={() =>
                        confirmDelete(t, t('registrationTokens.confirmRevoke', { name: tok.name, count: tok.launcherCount }), () =>
                          revoke.mutate(tok.id),
                        )
                      }
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
