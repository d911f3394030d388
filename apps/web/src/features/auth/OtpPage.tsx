import { Anchor, Button, Center, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { otpRule, OTP_LENGTH } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../lib/errorText';
import { FullPageLoader } from '../../routes/guards';
import { AuthCard } from './AuthCard';
import { authApi } from './api';
import { landingPath, safeRedirect, useMe, useSetMe } from './session';

/** Two-factor code entry after a sign-in that needs it. Keeps the redirect parameter. */
export function OtpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect'));
  const { data: me, isPending } = useMe();
  const setMe = useSetMe();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** A lost phone: one of the recovery codes shown at enrolment instead of the app's code. */
  const [recovery, setRecovery] = useState(false);

  const validate = useMutation({
    mutationFn: (value: string) => authApi.validateOtp(value),
    onSuccess: ({ user }) => {
      setMe(user);
      navigate(landingPath(user, redirect), { replace: true });
    },
    // The invalid-code message stays until the input is cleared.
    onError: (e) => setError(errorText(t, e, 'auth.otp.invalid')),
  });

  if (isPending) return <FullPageLoader />;
  if (!me) return <Navigate to={redirect ? `/auth/login?redirect=${encodeURIComponent(redirect)}` : '/auth/login'} replace />;
  if (!me.twoFactorPending) return <Navigate to={landingPath(me, redirect)} replace />;

  const submit = (value = code) => {
    if ((recovery ? value.trim() !== '' : otpRule(value) === null) && !validate.isPending) validate.mutate(value.trim());
  };
  const switchMode = () => {
    setRecovery(!recovery);
    setCode('');
    setError(null);
  };

  const onChange = (value: string) => {
    setCode(value);
    if (value === '') setError(null);
  };

  return (
    <AuthCard title={t('auth.otp.title')} subtitle={t('auth.otp.subtitle')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          {recovery ? (
            <TextInput
              label={t('auth.otp.recoveryLabel')}
              autoFocus
              autoComplete="one-time-code"
              maxLength={24}
              value={code}
              onChange={(e) => onChange(e.currentTarget.value)}
              error={!!error}
              data-testid="otp-recovery-code"
            />
          ) : (
            <Center>
              <PinInput
                length={OTP_LENGTH}
                type="number"
                oneTimeCode
                autoFocus
                value={code}
                onChange={onChange}
                onComplete={(v) => submit(v)}
                error={!!error}
                aria-label={t('auth.otp.codeLabel')}
                size="md"
                gap="xs"
              />
            </Center>
          )}
          {error && (
            <Text c="red" size="sm" ta="center" role="alert">
              {error}
            </Text>
          )}
          <Button type="submit" fullWidth loading={validate.isPending} disabled={recovery ? !code.trim() : code.length !== OTP_LENGTH}>
            {t('auth.otp.submit')}
          </Button>
          <Anchor component="button" type="button" size="sm" ta="center" onClick={switchMode} data-testid="otp-switch-mode">
            {recovery ? t('auth.otp.useApp') : t('auth.otp.useRecovery')}
          </Anchor>
          <Anchor component={Link} to="/logout" size="sm" ta="center">
            {t('auth.otp.cancel')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
