import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { emailRule } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText, fieldErrors } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { GROUP_ADMIN_KEY, groupsApi } from './api';

/** Invite a member by e-mail: the person joins when they accept (the answer is the same for any well-formed address). */
export function InviteForm() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (v) => (!v.trim() ? t('groupAdmin.errors.emailRequired') : emailRule(v.trim()) ? t('groupAdmin.errors.emailInvalid') : null),
    },
  });
  const invite = useMutation({
    mutationFn: (email: string) => call(groupsApi.invite, { body: { email } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      form.reset();
      await qc.invalidateQueries({ queryKey: GROUP_ADMIN_KEY });
    },
    onError: (e) => {
      const byField = fieldErrors(t, e);
      if (byField.email) form.setFieldError('email', byField.email);
      else notifyError(errorText(t, e));
    },
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit((v) => invite.mutate(v.email.trim()))} noValidate>
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('groupAdmin.invite.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('groupAdmin.invite.hint')}
          </Text>
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              type="email"
              style={{ flex: '1 1 220px' }}
              aria-label={t('groupAdmin.invite.email')}
              placeholder={t('groupAdmin.invite.email')}
              data-testid="group-invite-email"
              {...form.getInputProps('email')}
            />
            <Button type="submit" loading={invite.isPending} data-testid="group-invite-submit">
              {t('groupAdmin.invite.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
