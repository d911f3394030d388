import { Alert, Badge, Button, Card, Code, Group, Image, Loader, PinInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTP_LENGTH, twoFactorApi } from '@lamella/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, callRaw } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifySuccess } from '../../lib/notify';
import { ACCOUNT_KEY } from './api';

const TWO_FA_KEY = ['2fa'] as const;

type Setup = { qrUrl: string; secret: string | null };

/** Two-factor: enable with a QR code (or the typed secret) + a 6-digit code; disable with a code. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const state = useQuery({ queryKey: TWO_FA_KEY, queryFn: () => call(twoFactorApi.state) });
  const [setup, setSetup] = useState<Setup | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (setup) URL.revokeObjectURL(setup.qrUrl);
    },
    [setup],
  );

  const reset = () => {
    setSetup(null);
    setDisabling(false);
    setCode('');
    setError(null);
  };

  const start = useMutation({
    mutationFn: async () => {
      const res = await callRaw(twoFactorApi.start);
      const secret = res.headers.get('x-otp-secret');
      return { qrUrl: URL.createObjectURL(await res.blob()), secret };
    },
    onSuccess: (s) => {
      setSetup(s);
      setCode('');
      setError(null);
    },
    onError: (e) => setError(errorText(t, e, 'profile.twoFactor.startFailed')),
  });

  const update = useMutation({
    mutationFn: (enable: boolean) => call(twoFactorApi.update, { body: { code, enable } }),
    onSuccess: (res) => {
      qc.setQueryData(TWO_FA_KEY, res);
      void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
      notifySuccess(res.enabled ? t('profile.twoFactor.enabledToast') : t('profile.twoFactor.disabledToast'));
      reset();
    },
    // Spec: a failure to enable two-factor is shown on the input.
    onError: (e) => setError(errorText(t, e, 'profile.twoFactor.invalidCode')),
  });

  const onCode = (v: string) => {
    setCode(v);
    if (v === '') setError(null);
  };

  const codeInput = (
    <Stack gap={4}>
      <PinInput
        length={OTP_LENGTH}
        type="number"
        oneTimeCode
        value={code}
        onChange={onCode}
        error={!!error}
        aria-label={t('auth.otp.codeLabel')}
        gap={6}
      />
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );

  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('profile.twoFactor.title')}
        </Title>
        {state.data && (
          <Badge color={state.data.enabled ? 'green' : 'gray'} variant="light">
            {state.data.enabled ? t('profile.twoFactor.on') : t('profile.twoFactor.off')}
          </Badge>
        )}
      </Group>
      {state.isPending && <Loader size="sm" />}
      {state.isError && <Alert color="red">{t('profile.twoFactor.loadFailed')}</Alert>}
      {state.data && !state.data.enabled && !setup && (
        <Stack gap="sm">
          <Text size="sm">{t('profile.twoFactor.offText')}</Text>
          {error && (
            <Text c="red" size="sm">
              {error}
            </Text>
          )}
          <Button onClick={() => start.mutate()} loading={start.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('profile.twoFactor.enable')}
          </Button>
        </Stack>
      )}
      {state.data && !state.data.enabled && setup && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (code.length === OTP_LENGTH) update.mutate(true);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('profile.twoFactor.scan')}</Text>
            <Image src={setup.qrUrl} alt={t('profile.twoFactor.qrAlt')} w={180} h={180} fit="contain" />
            {setup.secret && (
              <Text size="sm">
                {t('profile.twoFactor.cantScan')} <Code data-testid="otp-secret">{setup.secret}</Code>
              </Text>
            )}
            <Text size="sm">{t('profile.twoFactor.enterCode')}</Text>
            {codeInput}
            <Group gap="xs">
              <Button type="submit" disabled={code.length !== OTP_LENGTH} loading={update.isPending}>
                {t('profile.twoFactor.activate')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {state.data?.enabled && !disabling && (
        <Stack gap="sm">
          <Text size="sm">{t('profile.twoFactor.onText')}</Text>
          <Button color="red" variant="outline" onClick={() => setDisabling(true)} style={{ alignSelf: 'flex-start' }}>
            {t('profile.twoFactor.disable')}
          </Button>
        </Stack>
      )}
      {state.data?.enabled && disabling && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (code.length === OTP_LENGTH) update.mutate(false);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('profile.twoFactor.disableText')}</Text>
            {codeInput}
            <Group gap="xs">
              <Button type="submit" color="red" disabled={code.length !== OTP_LENGTH} loading={update.isPending}>
                {t('profile.twoFactor.confirmDisable')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
