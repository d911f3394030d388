import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminUsersApi } from '@lamella/contracts';
import { IconUserShield } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { useMe } from '../auth/session';

/**
 * On every page while an admin acts as a user: whose account this is, and "Back to my account", which ends
 * the impersonation and restores the admin's own session (or the login page when that session has ended).
 */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const back = useMutation({
    mutationFn: () => call(adminUsersApi.endImpersonation),
    onSuccess: ({ restored }) => {
      qc.clear();
      void navigate(restored ? '/admin/users' : '/auth/login', { replace: true });
    },
    onError: (e) => notifyError(errorText(t, e)),
  });
  if (!me?.impersonatedBy) return null;
  return (
    <Alert
      color="orange"
      variant="filled"
      radius={0}
      py={6}
      // edge to edge under the header, with the page's own spacing below it
      mx="calc(var(--mantine-spacing-md) * -1)"
      mt="calc(var(--mantine-spacing-md) * -1)"
      mb="md"
      icon={<IconUserShield size={18} />}
      data-testid="impersonation-banner"
    >
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {t('impersonation.actingAs', { name: `${me.fullName} (${me.email})` })}
        </Text>
        <Button size="compact-sm" variant="white" color="orange" loading={back.isPending} onClick={() => back.mutate()}>
          {t('impersonation.back')}
        </Button>
      </Group>
    </Alert>
  );
}
