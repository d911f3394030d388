import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Image,
  Loader,
  PinInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTP_LENGTH, twoFactorApi } from '@lamella/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, callRaw, isApiError } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifySuccess } from '../../lib/notify';
import { ACCOUNT_KEY } from './api';

const TWO_FA_KEY = ['2fa'] as const;

type Setup = { qrUrl: string; secret: string | null };

/** The recovery codes of a new enrolment, shown once: copy, download, then confirm they are kept. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'lamella-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Title order={3} size="h5">
        {t('profile.twoFactor.recovery.title')}
      </Title>
      <Alert color="yellow">{t('profile.twoFactor.recovery.once')}</Alert>
      <SimpleGrid cols={2} spacing={4} maw={320}>
        {codes.map((c) => (
          <Code key={c} data-testid="recovery-code">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('profile.twoFactor.recovery.copied') : t('profile.twoFactor.recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={download}>
          {t('profile.twoFactor.recovery.download')}
        </Button>
        <Button onClick={onDone} data-testid="recovery-codes-done">
          {t('profile.twoFactor.recovery.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Two-factor: enable with a QR code (or the typed secret) + a 6-digit code, which answers recovery codes shown once.
 * While it is on, a new authenticator app or turning it off needs a code of the current app or a recovery code.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const state = useQuery({ queryKey: TWO_FA_KEY, queryFn: () => call(twoFactorApi.state) });
  const [setup, setSetup] = useState<Setup | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [code, setCode] = useState('');
  const [currentCode, setCurrentCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [currentError, setCurrentError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enabled = state.data?.enabled ?? false;

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
    setCurrentCode('');
    setError(null);
    setCurrentError(null);
  };

  const start = useMutation({
    mutationFn: async () => {
      const res = await callRaw(twoFactorApi.start);
      const secret = res.headers.get('x-otp-secret');
      return { qrUrl: URL.createObjectURL(await res.blob()), secret };
    },
    onSuccess: (s) => {
      reset();
      setSetup(s);
    },
    onError: (e) => setError(errorText(t, e, 'profile.twoFactor.startFailed')),
  });

  const update = useMutation({
    mutationFn: (enable: boolean) =>
      call(twoFactorApi.update, {
        body: enable ? { code, enable, ...(enabled ? { currentCode: currentCode.trim() } : {}) } : { code: currentCode.trim(), enable },
      }),
    onSuccess: (res) => {
      const { recoveryCodes: codes, ...shown } = res;
      qc.setQueryData(TWO_FA_KEY, shown);
      void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
      notifySuccess(res.enabled ? t('profile.twoFactor.enabledToast') : t('profile.twoFactor.disabledToast'));
      reset();
      setRecoveryCodes(codes ?? null);
    },
    // Spec: a failure to enable two-factor is shown on the input (the current code's own failure under it).
    onError: (e) => {
      const onCurrent = isApiError(e) && e.details.some((d) => d.field === 'currentCode');
      if (onCurrent || disabling) setCurrentError(errorText(t, e, 'profile.twoFactor.invalidCode'));
      else setError(errorText(t, e, 'profile.twoFactor.invalidCode'));
    },
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

  /** A code of the current app or a recovery code (needed while two-factor is on). */
  const currentInput = (
    <TextInput
      label={t('profile.twoFactor.currentCode')}
      description={t('profile.twoFactor.currentCodeHint')}
      value={currentCode}
      onChange={(e) => {
        setCurrentCode(e.currentTarget.value);
        setCurrentError(null);
      }}
      error={currentError}
      autoComplete="one-time-code"
      maxLength={24}
      maw={320}
      data-testid="two-factor-current-code"
    />
  );

  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('profile.twoFactor.title')}
        </Title>
        {state.data && (
          <Badge color={enabled ? 'green' : 'gray'} variant="light">
            {enabled ? t('profile.twoFactor.on') : t('profile.twoFactor.off')}
          </Badge>
        )}
      </Group>
      {state.isPending && <Loader size="sm" />}
      {state.isError && <Alert color="red">{t('profile.twoFactor.loadFailed')}</Alert>}
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}
      {!recoveryCodes && state.data && !enabled && !setup && (
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
      {!recoveryCodes && state.data && setup && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (code.length === OTP_LENGTH && (!enabled || currentCode.trim())) update.mutate(true);
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
            {enabled && currentInput}
            <Group gap="xs">
              <Button type="submit" disabled={code.length !== OTP_LENGTH || (enabled && !currentCode.trim())} loading={update.isPending}>
                {t('profile.twoFactor.activate')}
              </Button>
              <Button variant="default" onClick={reset}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {!recoveryCodes && enabled && !disabling && !setup && (
        <Stack gap="sm">
          <Text size="sm">{t('profile.twoFactor.onText')}</Text>
          {state.data?.recoveryCodesLeft !== undefined && (
            <Text size="sm" c={state.data.recoveryCodesLeft < 3 ? 'red' : 'dimmed'} data-testid="recovery-codes-left">
              {t('profile.twoFactor.recovery.left', { count: state.data.recoveryCodesLeft })}
            </Text>
          )}
          <Group gap="xs">
            <Button variant="default" onClick={() => start.mutate()} loading={start.isPending}>
              {t('profile.twoFactor.replace')}
            </Button>
            <Button color="red" variant="outline" onClick={() => setDisabling(true)}>
              {t('profile.twoFactor.disable')}
            </Button>
          </Group>
        </Stack>
      )}
      {!recoveryCodes && enabled && disabling && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (currentCode.trim()) update.mutate(false);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('profile.twoFactor.disableText')}</Text>
            {currentInput}
            <Group gap="xs">
              <Button type="submit" color="red" disabled={!currentCode.trim()} loading={update.isPending}>
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
