import { Button, Card, Center, FileButton, Group, Image, Loader, Text, Title } from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usersApi } from '@lamella/contracts';
import { call, callRaw, isApiError } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ACCOUNT_KEY } from './api';

const LOGO_KEY = ['account', 'logo'] as const;
const ACCEPTED = ['image/png', 'image/jpeg'];

/** Company logo: PNG or JPEG only; preview from GET /users/me/logo. */
export function LogoCard({ hasLogo }: { hasLogo: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const logo = useQuery({
    queryKey: LOGO_KEY,
    enabled: hasLogo,
    queryFn: async () => {
      try {
        return await (await callRaw(usersApi.logo)).blob();
      } catch (e) {
        if (isApiError(e) && e.statusCode === 404) return null;
        throw e;
      }
    },
  });
  const url = useMemo(() => (hasLogo && logo.data ? URL.createObjectURL(logo.data) : null), [logo.data, hasLogo]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
  };
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return call(usersApi.uploadLogo, { body });
    },
    onSuccess: () => {
      notifySuccess(t('profile.logo.uploaded'));
      refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'profile.logo.uploadFailed')),
  });
  const remove = useMutation({
    mutationFn: () => call(usersApi.removeLogo),
    onSuccess: () => {
      notifySuccess(t('profile.logo.removed'));
      qc.setQueryData(LOGO_KEY, null);
      refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'profile.logo.removeFailed')),
  });

  const onFile = (file: File | null) => {
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) {
      notifyError(t('profile.logo.wrongType'));
      return;
    }
    upload.mutate(file);
  };

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('profile.logo.title')}
      </Title>
      <Group align="center" gap="md" wrap="wrap">
        <Center
          w={160}
          h={96}
          style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 8, background: 'var(--mantine-color-gray-0)' }}
        >
          {hasLogo && logo.isPending ? (
            <Loader size="sm" />
          ) : url ? (
            <Image src={url} alt={t('profile.logo.preview')} mah={88} maw={150} fit="contain" />
          ) : (
            <IconPhoto size={32} color="var(--mantine-color-gray-5)" aria-label={t('profile.logo.none')} />
          )}
        </Center>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('profile.logo.hint')}
          </Text>
          <Group gap="xs">
            <FileButton onChange={onFile} accept="image/png,image/jpeg">
              {(props) => (
                <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending} variant="light">
                  {hasLogo ? t('profile.logo.replace') : t('profile.logo.upload')}
                </Button>
              )}
            </FileButton>
            {hasLogo && (
              <Button
                color="red"
                variant="subtle"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={() =>
                  modals.openConfirmModal({
                    title: t('profile.logo.removeTitle'),
                    children: <Text size="sm">{t('profile.logo.removeConfirm')}</Text>,
                    labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
                    confirmProps: { color: 'red' },
                    onConfirm: () => remove.mutate(),
                  })
                }
              >
                {t('profile.logo.remove')}
              </Button>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

function Stack({ children }: { children: ReactNode }) {
  return <div style={{ display: 'flex', flexDirection: 'column', gap: 8, flex: '1 1 200px' }}>{children}</div>;
}
